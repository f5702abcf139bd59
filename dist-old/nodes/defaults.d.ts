export declare const DEFAULTS: {
    readonly maxFixRounds: 3;
    readonly fewShot: 0;
    readonly schemaMaxChars: 24000;
    readonly previewRows: 10;
    readonly timeoutMs: 30000;
};
