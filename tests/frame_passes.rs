//! `loam screenshot --measure N` says where a frame's time goes (issue 56): one line a pass,
//! `pass NAME gpu X ms cpu Y ms`, for terrain, objects, liquids, horizon, sky and overlays,
//! then `cpu frame Z ms`. Run under Xvfb with Mesa's llvmpipe, whose timer queries give the
//! GPU figures; needs `packaging/setup --tests`.

use std::process::Command;

const PASSES: [&str; 6] = [
    "terrain", "objects", "liquids", "horizon", "sky", "overlays",
];

/// The measure run's output: the median frame time, each pass's (gpu, cpu) and the CPU frame.
struct Measured {
    frame: f64,
    passes: Vec<(String, f64, f64)>,
    cpu_frame: f64,
}

fn measure(extra: &[&str]) -> Measured {
    let out_png = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("passes.png");
    let sample = format!("{}/resources/sample/Sample.wdt", env!("CARGO_MANIFEST_DIR"));
    let o = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_loam"))
        .args([
            "screenshot",
            &sample,
            out_png.to_str().unwrap(),
            "--size",
            "1280x800",
        ])
        .args(["--measure", "12"])
        .args(extra)
        .output()
        .expect("xvfb-run is missing: install them with `bash packaging/setup --tests`");
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let number = |s: &str| {
        s.parse::<f64>()
            .unwrap_or_else(|_| panic!("a number: {s} in {text}"))
    };
    let frame = text
        .lines()
        .find_map(|l| l.strip_prefix("frame time: median "))
        .and_then(|l| l.split(' ').next())
        .map(number)
        .unwrap_or_else(|| panic!("no frame line: {text}"));
    let passes: Vec<(String, f64, f64)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("pass "))
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            assert_eq!(
                (w.len(), w[1], w[3], w[4], w[6]),
                (7, "gpu", "ms", "cpu", "ms"),
                "pass NAME gpu X ms cpu Y ms: {l}"
            );
            (w[0].to_string(), number(w[2]), number(w[5]))
        })
        .collect();
    let cpu_frame = text
        .lines()
        .find_map(|l| l.strip_prefix("cpu frame "))
        .and_then(|l| l.strip_suffix(" ms"))
        .map(number)
        .unwrap_or_else(|| panic!("no cpu frame line: {text}"));
    Measured {
        frame,
        passes,
        cpu_frame,
    }
}

#[test]
fn measure_prints_one_line_a_pass_and_the_passes_account_for_the_frame() {
    // On a machine other work keeps busy, a frame's wall time grows with the waits for the
    // cores while the passes' figures do not as much: the share is measured again, up to three
    // times, so that a busy moment does not fail the test for timing alone. On llvmpipe a
    // pass's GPU time is the wait for the rasterizer to finish it (render/pass_timer.rs); the
    // sample's default view gave 70 – 80 % of the frame.
    let mut shares = Vec::new();
    for _ in 0..3 {
        let m = measure(&[]);
        let names: Vec<&str> = m.passes.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(names, PASSES, "exactly one line a pass, in order");
        assert!(m.passes[0].1 > 0.0, "the terrain takes GPU time");
        assert!(
            m.cpu_frame > 0.0 && m.cpu_frame < m.frame,
            "{}",
            m.cpu_frame
        );
        let gpu: f64 = m.passes.iter().map(|p| p.1).sum();
        shares.push((gpu, m.frame));
        if gpu >= 0.5 * m.frame {
            break;
        }
    }
    assert!(
        shares.iter().any(|(gpu, frame)| *gpu >= 0.5 * frame),
        "the passes' GPU times add up to at least half the median frame (their sum, frame in \
         ms): {shares:?}"
    );

    // Without objects the objects pass draws nothing and costs nothing.
    let bare = measure(&["--no-objects"]);
    let objects = &bare.passes[1];
    assert_eq!(objects.0, "objects");
    assert!(
        objects.1 < 0.1,
        "objects pass with --no-objects: {} ms",
        objects.1
    );
}
