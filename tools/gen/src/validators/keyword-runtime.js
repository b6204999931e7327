// The run-time part of the generator's custom keywords, bundled once into the validators' ajv.js: the
// profile switch every compiled function reads and the choice between two failed forms (`liveForms`,
// live-forms.ts).

/** Which reading the compiled functions check: the live one while `live` is true (the facade sets it). */
export const liveProfile = { live: false };

/**
 * Both forms of a `liveForms` node failed in the live profile: `errors[start..mid)` are the errors of
 * the form tried first (the observed one when `observedFirst`), `errors[mid..)` the other's. Keeps only
 * those of the form that came closest (its deepest error lies deeper in the value; at the same depth,
 * a wrong type counts least, then a missing property, then anything else; on a tie, the documented
 * form) and says which form that was. The order of the tries does not change the choice.
 */
export function closestForm(errors, start, mid, observedFirst) {
  const score = (from, to) => {
    let best = 0;
    for (let i = from; i < to; i++) {
      const e = errors[i];
      const s = e.instancePath.length * 4 + (e.keyword === 'type' ? 0 : e.keyword === 'required' ? 1 : 2);
      if (s > best) best = s;
    }
    return best;
  };
  const first = score(start, mid);
  const second = score(mid, errors.length);
  if (observedFirst ? first > second : first >= second) {
    errors.length = mid;
    return observedFirst ? 'observed' : 'documented';
  }
  errors.splice(start, mid - start);
  return observedFirst ? 'documented' : 'observed';
}

