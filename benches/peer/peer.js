// The benchmark's peer: onnxruntime-web 1.30 (wasm backend, one thread, or two in the ?bench=ort2t page) running the same
// multi-head attention layer as the core (the graphs from make_graphs.py), on the same input
// and weights, and the same trained model (make_model.py) on the same tokens. Loaded only by the benchmark build's page, after ort.wasm.min.js; scripts/bench.sh
// copies both (and ORT's .wasm) into the benchmark build's peer/ folder, never into dist/.
(() => {
  const base = new URL('peer/', document.baseURI).href;
  const sessions = new Map();
  let current = null;

  function session(dModel, heads) {
    const key = `${dModel}/${heads}`;
    if (!sessions.has(key)) {
      ort.env.wasm.numThreads = window.attentionPeer.threads;
      ort.env.wasm.wasmPaths = base;
      const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
      sessions.set(key, ort.InferenceSession.create(`${base}mha_d${dModel}_h${heads}.onnx`, options));
    }
    return sessions.get(key);
  }

  window.attentionPeer = {
    // Threads for every session (the page sets it before the first: ORT fixes it then); two
    // need cross-origin isolation.
    threads: 1,
    // Load the layer for x (n × dModel, row-major) and the four (dModel × dModel) weights, run
    // it once, and return its output and weights for comparison with the core's.
    async prepare(dModel, heads, n, x, wq, wk, wv, wo) {
      const s = await session(dModel, heads);
      const tensor = (data, dims) => new ort.Tensor('float32', data, dims);
      const w = [dModel, dModel];
      const feeds = { x: tensor(x, [n, dModel]), w_q: tensor(wq, w), w_k: tensor(wk, w), w_v: tensor(wv, w), w_o: tensor(wo, w) };
      const out = await s.run(feeds);
      current = { s, feeds };
      return { output: out.output.data, weights: out.weights.data };
    },
    // One sample of the prepared layer: the mean time of `batch` back-to-back runs, in ms.
    async sample(batch) {
      const t0 = performance.now();
      for (let b = 0; b < batch; b++) await current.s.run(current.feeds);
      return (performance.now() - t0) / batch;
    },
    // A pretrained model (`file`: minilm.onnx or e5.onnx from make_model.py, fp32) on token ids
    // (an Int32Array): run it once and return its sentence embedding and layer 1's weights,
    // then `sample` times it.
    async prepareModel(file, ids) {
      if (!sessions.has(file)) {
        ort.env.wasm.numThreads = window.attentionPeer.threads;
        ort.env.wasm.wasmPaths = base;
        const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
        sessions.set(file, ort.InferenceSession.create(`${base}${file}`, options));
      }
      const s = await sessions.get(file);
      const n = ids.length;
      const tensor = (values) => new ort.Tensor('int64', BigInt64Array.from(values, (v) => BigInt(v)), [n]);
      const feeds = { input_ids: tensor(ids), position_ids: tensor(Array.from({ length: n }, (_, i) => i)) };
      const out = await s.run(feeds);
      current = { s, feeds };
      return { pooled: out.pooled.data, weights: out.attention_0.data };
    },
  };
})();
