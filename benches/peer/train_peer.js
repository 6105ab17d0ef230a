// The training benchmark's peer: TensorFlow.js 4.22 (its `cpu` and `wasm` backends) training
// the training view's model — token + position embeddings, causal multi-head attention with
// ÷√d_k, the residual stream, an unembedding, the mean cross-entropy over the answer's
// positions, Adam — on the same task (reverse: n digits, a separator, the reversed digits)
// with the same sizes, batch and optimiser. Float32 here, float64 in the core. Loaded only by
// the benchmark build's page, after tf.min.js and tf-backend-wasm.min.js, which
// scripts/bench.sh copies into the benchmark build's peer/ folder, never into dist/.
(() => {
  const base = new URL('peer/', document.baseURI).href;

  // A normal draw (Box–Muller) from Math.random: the peer's own start, not the core's.
  const normal = () => Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
  const variable = (rows, cols, sd) =>
    tf.variable(tf.tensor2d(Float32Array.from({ length: rows * cols }, () => sd * normal()), [rows, cols]));

  // One batch of reverse: tokens (batch × 2n) and the one-hot answers (batch × n × vocab).
  function reverseBatch(batch, n, digits) {
    const context = 2 * n;
    const vocab = digits + 1;
    const tokens = new Int32Array(batch * context);
    const answers = new Float32Array(batch * n * vocab);
    for (let b = 0; b < batch; b++) {
      const x = Array.from({ length: n }, () => Math.floor(Math.random() * digits));
      const y = [...x].reverse();
      const seq = [...x, digits, ...y.slice(0, n - 1)];
      tokens.set(seq, b * context);
      y.forEach((t, k) => { answers[(b * n + k) * vocab + t] = 1; });
    }
    return { tokens, answers };
  }

  window.attentionTrainPeer = {
    // Train `steps` steps on `backend` ('cpu' or 'wasm'); returns the median time of one step
    // (batch drawn, forward, backward, Adam, loss read back) over the second half of the run,
    // and the loss of the first and the last step.
    async train(backend, n, digits, dModel, heads, batch, learningRate, steps) {
      // One thread, as before the benchmark's page was cross-origin isolated (where TensorFlow.js
      // would pick its threaded build, whose workers the site's policy does not allow).
      if (backend === 'wasm') {
        tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
        tf.wasm.setWasmPaths(base);
      }
      if (!(await tf.setBackend(backend))) throw new Error(`backend ${backend} did not start`);
      await tf.ready();
      const context = 2 * n;
      const vocab = digits + 1;
      const dk = dModel / heads;
      const sd = 1 / Math.sqrt(dModel);
      const params = {
        embed: variable(vocab, dModel, 0.5),
        pos: variable(context, dModel, 0.5),
        wq: variable(dModel, dModel, sd),
        wk: variable(dModel, dModel, sd),
        wv: variable(dModel, dModel, sd),
        wo: variable(dModel, dModel, sd),
        unembed: variable(dModel, vocab, sd),
      };
      const mask = tf.tensor2d(
        Float32Array.from({ length: context * context }, (_, i) => (i % context > Math.floor(i / context) ? -1e9 : 0)),
        [context, context],
      );
      const optimizer = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);
      const heads4 = (t) => t.reshape([batch, context, heads, dk]).transpose([0, 2, 1, 3]);
      const loss = (tokens, answers) => {
        const p = params;
        // The embedding lookup as a one-hot product (every backend has its gradient).
        const oneHot = tf.oneHot(tokens.reshape([batch * context]), vocab).toFloat();
        const x0 = tf.matMul(oneHot, p.embed).reshape([batch, context, dModel]).add(p.pos);
        const flat = x0.reshape([batch * context, dModel]);
        const q = heads4(tf.matMul(flat, p.wq));
        const k = heads4(tf.matMul(flat, p.wk));
        const v = heads4(tf.matMul(flat, p.wv));
        const scores = tf.matMul(q, k, false, true).mul(1 / Math.sqrt(dk)).add(mask);
        const concat = tf.matMul(tf.softmax(scores), v).transpose([0, 2, 1, 3]).reshape([batch * context, dModel]);
        const x1 = flat.add(tf.matMul(concat, p.wo));
        const logits = tf.matMul(x1, p.unembed).reshape([batch, context, vocab]).slice([0, n, 0], [batch, n, vocab]);
        return tf.losses.softmaxCrossEntropy(answers, logits);
      };
      const times = [];
      let first = NaN;
      let last = NaN;
      for (let s = 0; s < steps; s++) {
        const t0 = performance.now();
        const data = reverseBatch(batch, n, digits);
        const tokens = tf.tensor2d(data.tokens, [batch, context], 'int32');
        const answers = tf.tensor3d(data.answers, [batch, n, vocab]);
        const value = optimizer.minimize(() => loss(tokens, answers), true, Object.values(params));
        last = (await value.data())[0];
        times.push(performance.now() - t0);
        tf.dispose([value, tokens, answers]);
        if (s === 0) first = last;
      }
      optimizer.dispose();
      tf.dispose([mask, ...Object.values(params)]);
      const tail = times.slice(Math.floor(steps / 2)).sort((a, b) => a - b);
      return { stepMs: tail[Math.floor(tail.length / 2)], firstLoss: first, lastLoss: last };
    },
  };
})();
