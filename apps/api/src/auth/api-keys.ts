import { timingSafeEqual } from 'node:crypto';

/**
 * The farm's API keys: with none configured every request is allowed; otherwise a request must
 * present one of them. Compared in constant time.
 */
export class ApiKeys {
  private readonly keys: Buffer[];

  constructor(keys: readonly string[] | undefined) {
    this.keys = (keys ?? []).map((k) => Buffer.from(k));
  }

  get required(): boolean {
    return this.keys.length > 0;
  }

  accepts(candidate: string | undefined): boolean {
    if (!this.required) return true;
    if (candidate === undefined) return false;
    const given = Buffer.from(candidate);
    return this.keys.some((key) => key.length === given.length && timingSafeEqual(key, given));
  }

  /** The key of an `Authorization: Bearer <key>` header (or the password of Basic auth). */
  static fromHeader(header: string | undefined): string | undefined {
    if (header === undefined) return undefined;
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (bearer) return bearer[1];
    const basic = /^Basic\s+(\S+)\s*$/i.exec(header);
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      return colon >= 0 ? decoded.slice(colon + 1) : undefined;
    }
    return undefined;
  }
}

/** Injection token of the `ApiKeys`. */
export const API_KEYS = Symbol('API_KEYS');
