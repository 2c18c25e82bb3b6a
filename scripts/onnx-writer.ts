/**
 * The ONNX writing the tiny-model scripts share (make-tiny-embedding-model.ts,
 * make-tiny-nli-model.ts, make-tiny-causal-model.ts): the subset of onnx.proto their graphs
 * need, as a protobufjs JSON descriptor, small builders for tensors, nodes and attributes, the
 * fp32-or-q8 weight table each model stores twice, and the model's encoding.
 *
 * Protobuf writes fields in id order whatever the objects' key order, and leaves out fields a
 * model does not set (a repeated `ints` no graph but the causal one uses), so one schema and one
 * set of builders write every script's files byte for byte as before.
 */
import protobuf from 'protobufjs';

const onnxSchema = {
  nested: {
    onnx: {
      nested: {
        ModelProto: { fields: { ir_version: { type: 'int64', id: 1 }, producer_name: { type: 'string', id: 2 }, producer_version: { type: 'string', id: 3 }, graph: { type: 'GraphProto', id: 7 }, opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 } } },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: { fields: { node: { rule: 'repeated', type: 'NodeProto', id: 1 }, name: { type: 'string', id: 2 }, initializer: { rule: 'repeated', type: 'TensorProto', id: 5 }, input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 }, output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 } } },
        NodeProto: { fields: { input: { rule: 'repeated', type: 'string', id: 1 }, output: { rule: 'repeated', type: 'string', id: 2 }, name: { type: 'string', id: 3 }, op_type: { type: 'string', id: 4 }, attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 } } },
        AttributeProto: { fields: { name: { type: 'string', id: 1 }, i: { type: 'int64', id: 3 }, ints: { rule: 'repeated', type: 'int64', id: 8 }, type: { type: 'int32', id: 20 } } },
        TensorProto: { fields: { dims: { rule: 'repeated', type: 'int64', id: 1 }, data_type: { type: 'int32', id: 2 }, name: { type: 'string', id: 8 }, raw_data: { type: 'bytes', id: 9 } } },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        TypeProto: { fields: { tensor_type: { type: 'TensorTypeProto', id: 1 } } },
        TensorTypeProto: { fields: { elem_type: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } } },
        Dimension: { fields: { dim_value: { type: 'int64', id: 1 }, dim_param: { type: 'string', id: 2 } } },
      },
    },
  },
};
const ModelProto = protobuf.Root.fromJSON(onnxSchema).lookupType('onnx.ModelProto');

/** TensorProto.DataType values. */
export const FLOAT = 1;
export const UINT8 = 2;
export const INT64 = 7;
/** AttributeProto.AttributeType values. */
const ATTR_INT = 2;
const ATTR_INTS = 7;

export interface Tensor {
  name: string;
  dims: number[];
  data_type: number;
  raw_data: Uint8Array;
}
export type Node = { op_type: string; input: string[]; output: string[]; name: string; attribute: object[] };
export type ValueInfo = ReturnType<typeof tensorInfo>;

/** A graph input or output: its element type and shape, a string naming a dimension left free. */
export const tensorInfo = (name: string, elemType: number, dims: (string | number)[]) => ({
  name,
  type: { tensor_type: { elem_type: elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dim_param: d } : { dim_value: d })) } } },
});

export const floatTensor = (name: string, dims: number[], values: ArrayLike<number>): Tensor => ({ name, dims, data_type: FLOAT, raw_data: new Uint8Array(Float32Array.from(values).buffer) });
export const int64Tensor = (name: string, dims: number[], values: bigint[]): Tensor => ({ name, dims, data_type: INT64, raw_data: new Uint8Array(BigInt64Array.from(values).buffer) });
export const uint8Tensor = (name: string, dims: number[], values: Uint8Array): Tensor => ({ name, dims, data_type: UINT8, raw_data: values });

/** A node named after its op and first output (names must be unique; outputs are). */
export const node = (op_type: string, input: string[], output: string[], attribute: object[] = []): Node => ({ op_type, input, output, name: `${op_type}_${output[0]}`, attribute });
export const intAttr = (name: string, i: number) => ({ name, i, type: ATTR_INT });
export const intsAttr = (name: string, ints: number[]) => ({ name, ints, type: ATTR_INTS });

/** The three inputs a BERT-style tokenizer gives a model, each [batch_size, sequence_length]. */
export const bertInputs = (): ValueInfo[] => ['input_ids', 'attention_mask', 'token_type_ids'].map((n) => tensorInfo(n, INT64, ['batch_size', 'sequence_length']));

/** How a weight table is stored: float32 (model.onnx), or uint8 with one scale and zero point (model_quantized.onnx, dtype q8). */
export type StoredWeights = { float: ArrayLike<number> } | { uint8: Uint8Array; scale: number; zeroPoint: number };

/**
 * The initializers and nodes that make the tensor `name` in the graph: the float table itself,
 * or `<name>_quantized`, `<name>_scale` and `<name>_zero_point` with a DequantizeLinear to
 * `name`, as dynamic quantization stores weights, so the library's q8 loading reads them.
 */
export function weightTable(name: string, dims: number[], stored: StoredWeights): { initializer: Tensor[]; nodes: Node[] } {
  if ('float' in stored) return { initializer: [floatTensor(name, dims, stored.float)], nodes: [] };
  const parts = [`${name}_quantized`, `${name}_scale`, `${name}_zero_point`];
  return {
    initializer: [uint8Tensor(parts[0], dims, stored.uint8), floatTensor(parts[1], [], [stored.scale]), uint8Tensor(parts[2], [], Uint8Array.of(stored.zeroPoint))],
    nodes: [node('DequantizeLinear', parts, [name])],
  };
}

export interface GraphParts {
  /** The script's name, in producer_name ('semece <script>'). */
  producer: string;
  name: string;
  node: Node[];
  initializer: Tensor[];
  input: ValueInfo[];
  output: ValueInfo[];
}

/** The model file's bytes: IR version 8, the default opset 13; checked against the schema first. */
export function encodeModel(graph: GraphParts): Uint8Array {
  const { producer, ...rest } = graph;
  const model = {
    ir_version: 8,
    producer_name: `semece ${producer}`,
    producer_version: '1',
    opset_import: [{ domain: '', version: 13 }],
    graph: rest,
  };
  const problem = ModelProto.verify(model);
  if (problem) throw new Error(`ONNX model does not fit the schema: ${problem}`);
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}
