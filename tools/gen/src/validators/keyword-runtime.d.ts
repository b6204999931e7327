export declare const liveProfile: { live: boolean };
export declare function closestForm(errors: { instancePath: string; keyword: string }[], start: number, mid: number): 'documented' | 'observed';
