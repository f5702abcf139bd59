// Apart from common.ts (LangGraph, the model client) so that plain modules such as execute.ts stay light.
export const DEFAULTS = {
    maxFixRounds: 3,
    fewShot: 0,
    schemaMaxChars: 24_000,
    previewRows: 10,
    timeoutMs: 30_000,
};
