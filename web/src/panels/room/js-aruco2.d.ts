// The parts of js-aruco2 (CommonJS, untyped) the room uses.
declare module "js-aruco2" {
  interface Corner {
    x: number;
    y: number;
  }
  interface Marker {
    id: number;
    corners: Corner[];
    hammingDistance: number;
  }
  interface Dictionary {
    /** Cells a side, border included (8 for ARUCO_MIP_36h12). */
    markSize: number;
    /** Each marker's inner bits, row by row, as a string of "0" and "1" (1: white). */
    codeList: string[];
  }
  interface Detector {
    detect(image: { width: number; height: number; data: Uint8ClampedArray | Uint8Array }): Marker[];
  }
  const aruco: {
    AR: {
      Dictionary: new (name: string) => Dictionary;
      Detector: new (config?: { dictionaryName?: string; maxHammingDistance?: number }) => Detector;
    };
  };
  export default aruco;
}
