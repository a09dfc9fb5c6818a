/** The part of the espeak-ng npm package (Emscripten module factory, no bundled types) the emulator uses. */
declare module 'espeak-ng' {
  interface ESpeakNgModule {
    FS: { readFile(path: string): Uint8Array; writeFile(path: string, data: string | Uint8Array): void };
  }
  interface ESpeakNgOptions {
    arguments: string[];
    print?: (text: string) => void;
    printErr?: (text: string) => void;
    preRun?: Array<(module: ESpeakNgModule) => void>;
    quit?: (status: number, toThrow: unknown) => void;
    instantiateWasm?: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
  }
  const ESpeakNg: (options: ESpeakNgOptions) => Promise<ESpeakNgModule>;
  export default ESpeakNg;
}
