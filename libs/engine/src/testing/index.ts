export * from './pigeon-ladder.game.js';
