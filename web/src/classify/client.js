// The page's side of the Classify panel's worker (classify/worker.js), started when first needed.
import { createWorkerClient } from '../worker/client.js';

export const createClassifyClient = () =>
  createWorkerClient(() => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }), { name: 'dGLI' });
