// The run-time part of the `liveForms` keyword (live-forms.ts), bundled once into the validators'
// ajv.js: the profile switch every compiled function reads, and the choice between two failed forms.

/** Which reading the compiled functions check: the live one while `live` is true (the facade sets it). */
export const liveProfile = { live: false };

/**
 * Both forms of a `liveForms` node failed: `errors[start..mid)` are the documented form's,
 * `errors[mid..)` the observed form's. Keeps only those of the form that came closest (its deepest
 * error lies deeper in the value; at the same depth, a wrong type counts least, then a missing
 * property, then anything else; on a tie, the documented form) and says which form that was.
 */
export function closestForm(errors, start, mid) {
  const score = (from, to) => {
    let best = 0;
    for (let i = from; i < to; i++) {
      const e = errors[i];
      const s = e.instancePath.length * 4 + (e.keyword === 'type' ? 0 : e.keyword === 'required' ? 1 : 2);
      if (s > best) best = s;
    }
    return best;
  };
  if (score(mid, errors.length) > score(start, mid)) {
    errors.splice(start, mid - start);
    return 'observed';
  }
  errors.length = mid;
  return 'documented';
}
