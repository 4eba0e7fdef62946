/** Fills in defaults once: an option left undefined (not only a missing one) takes its default. */
export function withDefaults<D extends object, O extends object>(defaults: D, options: O): D & O {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return { ...defaults, ...given } as D & O;
}
