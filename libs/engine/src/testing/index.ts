export * from './pigeon-ladder.game.js';
export * from './refusal.js';
