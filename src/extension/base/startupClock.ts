/**
 * When dist/extension.js began evaluating: extension.ts imports this module first, so esbuild
 * evaluates it before every other module of the bundle (the ACP SDK and its schemas included).
 * The benchmark reads it through the API (`stats().activation`).
 */
import { performance } from 'node:perf_hooks';

export const moduleEvaluationStartedAt = performance.now();
