/** Small dense linear algebra for training and applying projections (row-major number[][]). */

/** Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations; eigenvalues descending. */
export function symmetricEigen(input: number[][]): { values: number[]; vectors: number[][] } {
  const n = input.length;
  const a = input.map((r) => [...r]);
  const v: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) off += a[i]![j]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p]![q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y]![y]! - a[x]![x]!);
  return {
    values: order.map((i) => a[i]![i]!),
    // Column i of v is the eigenvector; return them as rows.
    vectors: order.map((i) => v.map((row) => row[i]!)),
  };
}

/** Covariance accumulator helpers. */
export function zeros(r: number, c: number): number[][] {
  return Array.from({ length: r }, () => new Array<number>(c).fill(0));
}

/** a += w * x xᵀ */
export function addOuter(a: number[][], x: ArrayLike<number>, w = 1): void {
  for (let i = 0; i < x.length; i++) {
    const xi = w * x[i]!;
    const row = a[i]!;
    for (let j = 0; j < x.length; j++) row[j] = row[j]! + xi * x[j]!;
  }
}

/** Matrix product a (n×m) · b (m×p). */
export function matmul(a: number[][], b: number[][]): number[][] {
  const n = a.length;
  const m = b.length;
  const p = b[0]?.length ?? 0;
  const out = zeros(n, p);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < m; k++) {
      const aik = a[i]![k]!;
      if (aik === 0) continue;
      const br = b[k]!;
      const orow = out[i]!;
      for (let j = 0; j < p; j++) orow[j] = orow[j]! + aik * br[j]!;
    }
  return out;
}

export function transpose(a: number[][]): number[][] {
  return (a[0] ?? []).map((_, j) => a.map((r) => r[j]!));
}
