/** Absent fields are absent attributes (not NULL), so REMOVE, `if_not_exists` and "never set" agree. */
export function withoutNulls<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) as Partial<T>;
}
