#![cfg(target_arch = "wasm32")]
use attention_lab::core::kernels::matmul;
use attention_lab::core::rng::normal_matrix;
use wasm_bindgen_test::*;
wasm_bindgen_test_configure!(run_in_browser);
fn now() -> f64 { web_sys::window().unwrap().performance().unwrap().now() }
#[wasm_bindgen_test]
fn kbench() {
    for (m, k, n) in [(256usize, 512usize, 512usize), (256, 64, 64)] {
        let (a, b) = (normal_matrix(m, k, 1, 1), normal_matrix(k, n, 1, 2));
        let best = |f: &dyn Fn()| { for _ in 0..10 { f() } (0..30).map(|_| { let t0 = now(); f(); now() - t0 }).fold(f64::MAX, f64::min) };
        let ours = best(&|| { let _ = matmul(a.view(), b.view()); });
        let mm = best(&|| { let _ = a.dot(&b); });
        console_log!("matmul {m}x{k}x{n}: ours {ours:.2} ms, matrixmultiply {mm:.2} ms, {:.2} GMAC/s", (m*k*n) as f64 / ours / 1e6);
    }
}
#[wasm_bindgen_test]
fn tbench() {
    use attention_lab::core::{run, AttentionConfig, Weights};
    for (n, d, h) in [(256usize, 512usize, 8usize), (32, 64, 1), (128, 256, 4)] {
        let x = normal_matrix(n, d, 3, 3);
        let w = Weights::seeded(d, 1).unwrap();
        let cfg = AttentionConfig { heads: h, ..AttentionConfig::default() };
        let best = |f: &dyn Fn()| { for _ in 0..10 { f() } (0..30).map(|_| { let t0 = now(); f(); now() - t0 }).fold(f64::MAX, f64::min) };
        let t = best(&|| { let _ = run(&x, None, &w, &cfg); });
        let proj = best(&|| { let _ = matmul(x.view(), w.w_q.view()); });
        console_log!("trace n={n} d={d} h={h}: {t:.2} ms; one projection {proj:.2} ms");
    }
}
#[wasm_bindgen_test]
fn hbench() {
    use attention_lab::core::attention::head;
    use attention_lab::core::kernels::matmul_t;
    use attention_lab::core::softmax::softmax_rows;
    let (n, d, dk) = (256usize, 512usize, 64usize);
    let q = normal_matrix(n, d, 3, 3);
    let k = normal_matrix(n, d, 3, 4);
    let blocked = ndarray::Array2::from_elem((n, n), false);
    let qh = q.slice(ndarray::s![.., 64..128]);
    let kh = k.slice(ndarray::s![.., 64..128]);
    let best = |f: &dyn Fn()| { for _ in 0..10 { f() } (0..30).map(|_| { let t0 = now(); f(); now() - t0 }).fold(f64::MAX, f64::min) };
    let h = best(&|| { let _ = head(qh, kh, kh, &blocked, 8.0, 1.0); });
    let s = best(&|| { let _ = matmul_t(qh, kh); });
    let sc = matmul_t(qh, kh);
    let sm = best(&|| { let _ = softmax_rows(&sc, &blocked, 1.0); });
    let div = best(&|| { let _ = &sc / 8.0f32; });
    let w = softmax_rows(&sc, &blocked, 1.0);
    let av = best(&|| { let _ = matmul(w.view(), kh); });
    let cp = best(&|| { let _ = qh.to_owned(); });
    let _ = dk;
    console_log!("head {h:.3} ms: qk {s:.3}, div {div:.3}, softmax {sm:.3}, av {av:.3}, copy {cp:.3}");
}
#[wasm_bindgen_test]
fn sbench() {
    use attention_lab::core::kernels::exp_shifted_sum;
    let x = normal_matrix(256, 256, 5, 5);
    let xs = x.as_slice().unwrap();
    let mut out = vec![0.0f32; xs.len()];
    let best = |f: &mut dyn FnMut()| { for _ in 0..10 { f() } (0..30).map(|_| { let t0 = now(); f(); now() - t0 }).fold(f64::MAX, f64::min) };
    let e = best(&mut || { for (i, o) in xs.chunks(256).zip(out.chunks_mut(256)) { let _ = exp_shifted_sum(i, 5.0, 1.0, o); } });
    let m = best(&mut || { let mut s = 0.0; for i in xs.chunks(256) { s += i.iter().copied().fold(f32::NEG_INFINITY, f32::max); } assert!(s != 1.234); });
    let scalar = best(&mut || { for (i, o) in xs.chunks(256).zip(out.chunks_mut(256)) { for (a, b) in i.iter().zip(o.iter_mut()) { *b = (a - 5.0).exp(); } } });
    console_log!("65K: exp_shifted_sum {e:.3} ms, max fold {m:.3} ms, libm exp {scalar:.3} ms");
}
