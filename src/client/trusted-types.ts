// The one Trusted Types policy Questboard creates, named `questboard` (a site enforcing
// Trusted Types lists it: `trusted-types questboard`). It admits only same-origin script URLs
// (the service worker) and HTML that has just come out of the sanitizer.

export const TRUSTED_TYPES_POLICY_NAME = 'questboard';

/** Opaque TrustedHTML / TrustedScriptURL where the browser has them, plain strings otherwise. */
export type TrustedValue = string & { readonly __trusted?: never };

export interface QuestboardPolicy {
  createHTML(sanitizedHtml: string): TrustedValue;
  createScriptURL(url: string): TrustedValue;
}

interface TrustedTypePolicyFactory {
  createPolicy(name: string, rules: QuestboardPolicy): QuestboardPolicy;
}

let policy: QuestboardPolicy | undefined;

function sameOriginScriptUrl(url: string): string {
  const parsed = new URL(url, document.baseURI);
  if (parsed.origin !== location.origin) {
    throw new TypeError(`Questboard loads scripts from this origin only, not ${parsed.origin}.`);
  }
  return parsed.href;
}

/**
 * The policy, created on first use; plain strings pass through where the browser has no
 * Trusted Types. `createHTML` is the identity: only the sanitizer calls it, on its own output.
 */
export function questboardPolicy(): QuestboardPolicy {
  if (!policy) {
    const rules: QuestboardPolicy = { createHTML: (html) => html, createScriptURL: sameOriginScriptUrl };
    const factory = (globalThis as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes;
    policy = factory ? factory.createPolicy(TRUSTED_TYPES_POLICY_NAME, rules) : rules;
  }
  return policy;
}
