//! Gives the Windows executable its icon and version resource (what Explorer shows in the file's
//! properties and on the taskbar). Other targets need nothing from here, so a Linux build never
//! looks for windres.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=packaging/icons/loam.ico");
    // The target's OS, not the host's: build scripts run on the machine that builds.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("windows") {
        return;
    }
    let mut resource = winresource::WindowsResource::new();
    // Version, product name and description come from Cargo.toml's [package].
    resource.set_icon("packaging/icons/loam.ico");
    if let Err(e) = resource.compile() {
        panic!("compiling the Windows resource (icon, version) failed: {e}");
    }
}
