// The benchmark's peer: onnxruntime-web 1.30 (wasm backend, one thread) running the same
// multi-head attention layer as the core (the graphs from make_graphs.py), on the same input
// and weights. Loaded only by the benchmark build's page, after ort.wasm.min.js; scripts/bench.sh
// copies both (and ORT's .wasm) into the benchmark build's peer/ folder, never into dist/.
(() => {
  const base = new URL('peer/', document.baseURI).href;
  const sessions = new Map();

  function session(dModel, heads) {
    const key = `${dModel}/${heads}`;
    if (!sessions.has(key)) {
      ort.env.wasm.numThreads = 1;
      ort.env.wasm.wasmPaths = base;
      const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
      sessions.set(key, ort.InferenceSession.create(`${base}mha_d${dModel}_h${heads}.onnx`, options));
    }
    return sessions.get(key);
  }

  window.attentionPeer = {
    // Time one run of the layer on x (n × dModel, row-major) and the four (dModel × dModel)
    // weights, `reps` samples; returns them in ms with the last run's output and weights. As
    // for the core, each sample is the mean of as many back-to-back runs as fill about 2 ms.
    async run(dModel, heads, n, x, wq, wk, wv, wo, reps) {
      const s = await session(dModel, heads);
      const tensor = (data, dims) => new ort.Tensor('float32', data, dims);
      const w = [dModel, dModel];
      const feeds = { x: tensor(x, [n, dModel]), w_q: tensor(wq, w), w_k: tensor(wk, w), w_v: tensor(wv, w), w_o: tensor(wo, w) };
      let t0 = performance.now();
      let last = await s.run(feeds);
      const batch = Math.min(1000, Math.max(1, Math.ceil(2 / Math.max(performance.now() - t0, 0.01))));
      const times = [];
      for (let i = 0; i < reps; i++) {
        t0 = performance.now();
        for (let b = 0; b < batch; b++) last = await s.run(feeds);
        times.push((performance.now() - t0) / batch);
      }
      return { times, output: last.output.data, weights: last.weights.data };
    },
  };
})();
