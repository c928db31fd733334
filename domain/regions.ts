/** The regions a project can be created in (`GET /regions/`): one per running service. */
export type Region = { readonly location: string; readonly name: string; readonly code: string };

export const REGIONS: readonly Region[] = [{ location: 'local', name: 'This installation', code: 'local' }];

export const regionOf = (code: string): Region | undefined => REGIONS.find((r) => r.code === code);
