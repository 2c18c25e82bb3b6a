/**
 * The tiny-model scripts' ONNX writer: a weight table stored as fp32 or as q8 (with the
 * DequantizeLinear the library's q8 loading expects), and a model that really is ONNX: the
 * bytes decode with the schema and onnxruntime-node runs them.
 */
import * as ort from 'onnxruntime-node';
import { describe, expect, test } from 'vitest';
import { encodeModel, FLOAT, floatTensor, INT64, intAttr, node, tensorInfo, weightTable } from '../../../scripts/onnx-writer';

describe('weightTable', () => {
  test('fp32: the table itself, no nodes', () => {
    const t = weightTable('w', [2, 2], { float: [1, 2, 3, 4] });
    expect(t.nodes).toEqual([]);
    expect(t.initializer).toHaveLength(1);
    expect(t.initializer[0]).toMatchObject({ name: 'w', dims: [2, 2], data_type: FLOAT });
    expect(Array.from(new Float32Array(t.initializer[0].raw_data.buffer))).toEqual([1, 2, 3, 4]);
  });

  test('q8: quantized values, scale and zero point, dequantized into the table’s name', () => {
    const t = weightTable('w', [2, 2], { uint8: Uint8Array.of(128, 130, 126, 255), scale: 0.5, zeroPoint: 128 });
    expect(t.initializer.map((i) => [i.name, i.dims])).toEqual([['w_quantized', [2, 2]], ['w_scale', []], ['w_zero_point', []]]);
    expect(Array.from(t.initializer[2].raw_data)).toEqual([128]);
    expect(t.nodes).toEqual([node('DequantizeLinear', ['w_quantized', 'w_scale', 'w_zero_point'], ['w'])]);
  });
});

describe('encodeModel', () => {
  async function run(stored: Parameters<typeof weightTable>[2]): Promise<number[]> {
    const table = weightTable('table', [3, 2], stored);
    const bytes = encodeModel({
      producer: 'onnx-writer test',
      name: 'lookup',
      initializer: table.initializer,
      node: [...table.nodes, node('Gather', ['table', 'ids'], ['rows'], [intAttr('axis', 0)])],
      input: [tensorInfo('ids', INT64, ['n'])],
      output: [tensorInfo('rows', FLOAT, ['n', 2])],
    });
    const session = await ort.InferenceSession.create(bytes);
    const { rows } = await session.run({ ids: new ort.Tensor('int64', BigInt64Array.of(2n, 0n), [2]) });
    return Array.from(rows.data as Float32Array);
  }

  test('an fp32 table and its q8 twin give the same rows through onnxruntime', async () => {
    expect(await run({ float: [0, 1, 2, 3, 4, 5] })).toEqual([4, 5, 0, 1]);
    expect(await run({ uint8: Uint8Array.of(128, 130, 132, 134, 136, 138), scale: 0.5, zeroPoint: 128 })).toEqual([4, 5, 0, 1]);
  });

  test('a model the schema does not accept is refused with the reason', () => {
    const bad = floatTensor('x', [1], [1]) as unknown as { dims: unknown };
    bad.dims = 'one';
    expect(() => encodeModel({ producer: 'p', name: 'g', initializer: [bad as never], node: [], input: [], output: [] })).toThrow(/ONNX model does not fit the schema: .*dims/);
  });
});
