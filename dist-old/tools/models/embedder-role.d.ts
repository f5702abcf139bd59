/** The role embedding calls are counted under in usage (`usage.byRole.embedder`); apart so light modules can name it. */
export declare const EMBEDDER_ROLE = "embedder";
