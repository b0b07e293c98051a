// The page's side of the Reconstruct panel's worker (reconstruct/worker.js), started when first
// needed; onStage(text) hears what a long request is doing.
import { createWorkerClient } from '../worker/client.js';

export const createReconstructClient = ({ onStage }) =>
  createWorkerClient(() => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }),
    { name: 'reconstruction', onStage });
