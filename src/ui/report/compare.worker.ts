/// <reference lib="webworker" />
/** Compares a model's confidence signals off the main thread (a paired bootstrap over every signal). */
import { runCompare, type CompareRequest } from './compare-client';

self.onmessage = (event: MessageEvent<CompareRequest>) => {
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(runCompare(event.data));
};
