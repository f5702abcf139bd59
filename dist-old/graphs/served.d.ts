export declare const baseline: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const repair: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const asGiven: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const magic: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const magicFeedback: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const magicGuideline: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const r3: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const r3Review: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const memoSql: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const memoRefine: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const tsSql: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const tsSqlRefine: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const selfDebugging: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const selfConsistency: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
export declare const multiplePrompt: (config?: {
    configurable?: Record<string, unknown>;
}) => Promise<any>;
