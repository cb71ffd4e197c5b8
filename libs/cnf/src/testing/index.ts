export * from './brute-force.js';
