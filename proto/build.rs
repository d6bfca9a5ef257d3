//! Generates the gRPC code from `shipgate/v1/shipgate.proto` with protox (a
//! pure-Rust protobuf compiler), so building needs no system `protoc`, and
//! writes the encoded `FileDescriptorSet` the daemon serves over reflection
//! (`shipgate_proto::FILE_DESCRIPTOR_SET`).

use std::path::PathBuf;

/// The API's one file, by its name inside the package root (`proto/`):
/// the name reflection clients see.
const PROTO: &str = "shipgate/v1/shipgate.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed={PROTO}");
    let mut compiler = protox::Compiler::new(["."])?;
    // Comments ride along, so a reflection client shows each method's doc.
    compiler
        .include_source_info(true)
        .include_imports(true)
        .open_file(PROTO)?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out_dir.join("shipgate_descriptor.bin"),
        compiler.encode_file_descriptor_set(),
    )?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        .compile_fds(compiler.file_descriptor_set())?;
    Ok(())
}
