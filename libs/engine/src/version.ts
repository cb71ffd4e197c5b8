/** satfarm's version, as package.json gives it (a spec checks that they agree). */
export const SATFARM_VERSION = '0.1.0';
