/** The role embedding calls are counted under in usage (`usage.byRole.embedder`); apart so light modules can name it. */
export const EMBEDDER_ROLE = "embedder";
