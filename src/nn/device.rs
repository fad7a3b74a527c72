//! Where a network computes: the CPU (burn's `flex` backend, always built) or a GPU (burn's
//! `wgpu` backend, on Vulkan, Metal or DirectX 12, in a build with the `gpu` feature). Weights
//! are bytes either way, so a network trained on one plays on the other.

use anyhow::bail;
use burn::tensor::Device;
use serde::{Deserialize, Serialize};

/// The device a network trains and evaluates on (`[net] device`, `--device`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Compute {
    /// burn's `flex` backend on the CPU.
    #[default]
    Cpu,
    /// burn's `wgpu` backend on the machine's default GPU adapter.
    Gpu,
}

impl Compute {
    /// Whether this is the CPU (the default, left out of written configs).
    pub(crate) fn is_cpu(&self) -> bool {
        *self == Compute::Cpu
    }

    /// The burn device; a one-line error when this build has no GPU backend, or the machine no
    /// adapter.
    pub fn device(self) -> anyhow::Result<Device> {
        match self {
            Compute::Cpu => Ok(Device::flex()),
            Compute::Gpu => gpu(),
        }
    }
}

impl std::fmt::Display for Compute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Compute::Cpu => "cpu",
            Compute::Gpu => "gpu",
        })
    }
}

impl std::str::FromStr for Compute {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> anyhow::Result<Compute> {
        match s {
            "cpu" => Ok(Compute::Cpu),
            "gpu" => Ok(Compute::Gpu),
            other => bail!("unknown device `{other}`: `cpu` or `gpu`"),
        }
    }
}

/// The GPU, once a first computation on it has worked (wgpu panics when it finds no adapter;
/// the probe turns that into an error, once per process).
#[cfg(feature = "gpu")]
fn gpu() -> anyhow::Result<Device> {
    use burn::tensor::{DeviceKind, Tensor};
    use std::sync::OnceLock;
    static PROBE: OnceLock<Result<(), String>> = OnceLock::new();
    let dev = Device::wgpu(DeviceKind::DefaultDevice);
    let probe = PROBE.get_or_init(|| {
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let result = std::panic::catch_unwind(|| {
            let t = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &dev);
            t.sum().into_scalar::<f32>()
        });
        std::panic::set_hook(quiet);
        match result {
            Ok(6.0) => Ok(()),
            Ok(sum) => Err(format!("a test sum gave {sum}, not 6")),
            Err(panic) => Err(panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "it failed to start".to_string())
                .replace('\n', " ")),
        }
    });
    match probe {
        Ok(()) => Ok(dev),
        Err(e) => bail!("no usable GPU (wgpu: Vulkan, Metal or DirectX 12): {e}"),
    }
}

#[cfg(not(feature = "gpu"))]
fn gpu() -> anyhow::Result<Device> {
    bail!("device `gpu` needs a build with the `gpu` feature: cargo build --release --features gpu")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_read_and_write_as_their_names() {
        for c in [Compute::Cpu, Compute::Gpu] {
            assert_eq!(c.to_string().parse::<Compute>().unwrap(), c);
        }
        let err = "tpu".parse::<Compute>().unwrap_err().to_string();
        assert_eq!(err, "unknown device `tpu`: `cpu` or `gpu`");
        assert!(Compute::Cpu.device().is_ok());
    }

    #[cfg(not(feature = "gpu"))]
    #[test]
    fn the_gpu_in_a_build_without_it_is_an_error_naming_the_feature() {
        let err = Compute::Gpu.device().unwrap_err().to_string();
        assert!(err.contains("--features gpu"), "{err}");
    }
}
