/** `*` matches any run of characters; everything else literally (the tenant policy's patterns). */
export function patternMatches(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return re.test(value);
}
