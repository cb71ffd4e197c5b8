export * from './sweep.error.js';
export * from './sweep-state.js';
export * from './horizon-policy.js';
export * from './horizon-policy.registry.js';
export * from './consecutive.policy.js';
export * from './probe.policy.js';
export * from './horizon-sweep.js';
