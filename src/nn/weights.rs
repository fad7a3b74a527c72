//! Network weights as bytes (burnpack): loading them into a network, whatever float precision
//! they were stored in, and storing them again in full or half precision.

use super::NetConfig;
use super::model::PolicyValueNet;
use anyhow::bail;
use burn::store::{BurnpackStore, FloatCastAdapter, ModuleSnapshot};
use burn::tensor::{Bytes, DType, Device};
use std::path::Path;

/// The float precision weights are stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// 32-bit floats: the network exactly as trained.
    F32,
    /// 16-bit floats: half the size; a player's choices are the same but for near ties.
    F16,
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Precision::F32 => "f32",
            Precision::F16 => "f16",
        })
    }
}

impl std::str::FromStr for Precision {
    type Err = String;

    fn from_str(text: &str) -> Result<Precision, String> {
        match text {
            "f32" => Ok(Precision::F32),
            "f16" => Ok(Precision::F16),
            _ => Err(format!(
                "unknown precision `{text}`; the precisions are f16 and f32"
            )),
        }
    }
}

impl Precision {
    fn dtype(self) -> DType {
        match self {
            Precision::F32 => DType::F32,
            Precision::F16 => DType::F16,
        }
    }
}

/// A network of shape `cfg` from burnpack bytes in memory (f32 or f16: the network computes in
/// f32 either way), with a clear error for damaged or mismatched bytes.
pub fn load_net_bytes(
    cfg: &NetConfig,
    dev: &Device,
    bytes: &[u8],
) -> anyhow::Result<PolicyValueNet> {
    let mut store = BurnpackStore::from_bytes(Some(Bytes::from_bytes_vec(bytes.to_vec())))
        .with_from_adapter(FloatCastAdapter::to(DType::F32));
    let mut net = PolicyValueNet::new(cfg, dev);
    net.load_from(&mut store).map_err(|e| {
        anyhow::anyhow!("the network is damaged or does not match the config ({cfg:?}): {e}")
    })?;
    Ok(net)
}

/// A network of shape `cfg` from a burnpack file, with a clear error for a missing, damaged or
/// mismatched file.
pub fn load_net(cfg: &NetConfig, dev: &Device, path: &Path) -> anyhow::Result<PolicyValueNet> {
    if !path.is_file() {
        bail!("network file {} does not exist", path.display());
    }
    let bytes = std::fs::read(path)
        .map_err(|e| anyhow::anyhow!("cannot read network file {}: {e}", path.display()))?;
    load_net_bytes(cfg, dev, &bytes)
        .map_err(|e| anyhow::anyhow!("network file {}: {e}", path.display()))
}

/// The burnpack bytes of `net` with its floats stored in `precision`.
pub fn net_bytes(net: &PolicyValueNet, precision: Precision) -> anyhow::Result<Vec<u8>> {
    let mut store =
        BurnpackStore::from_bytes(None).with_to_adapter(FloatCastAdapter::to(precision.dtype()));
    net.save_into(&mut store)
        .map_err(|e| anyhow::anyhow!("cannot store the network: {e}"))?;
    let bytes = store
        .get_bytes()
        .map_err(|e| anyhow::anyhow!("cannot store the network: {e}"))?;
    Ok(bytes.to_vec())
}

/// Weights (burnpack bytes of a network of shape `cfg`) stored again in `precision`.
pub fn convert_weights(
    cfg: &NetConfig,
    bytes: &[u8],
    precision: Precision,
) -> anyhow::Result<Vec<u8>> {
    net_bytes(&load_net_bytes(cfg, &super::device(), bytes)?, precision)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::forward_probabilities;

    fn small() -> NetConfig {
        NetConfig {
            hidden: vec![32, 16],
            ..NetConfig::default()
        }
    }

    /// The network's priors and values on real positions.
    fn outputs(net: &PolicyValueNet) -> (Vec<f32>, Vec<f32>) {
        let n = 20;
        let (obs, masks) = crate::nn::fast::tests::positions(n);
        forward_probabilities(net, &crate::nn::device(), &obs, &masks, n)
    }

    #[test]
    fn half_precision_weights_are_half_the_size_and_compute_nearly_the_same() {
        let cfg = small();
        let net = PolicyValueNet::new_seeded(&cfg, &crate::nn::device(), 3);
        let full = net_bytes(&net, Precision::F32).unwrap();
        let half = convert_weights(&cfg, &full, Precision::F16).unwrap();
        assert!(
            half.len() * 10 < full.len() * 6,
            "f16 {} bytes against f32 {} bytes",
            half.len(),
            full.len()
        );
        let dev = crate::nn::device();
        let (p32, v32) = outputs(&load_net_bytes(&cfg, &dev, &full).unwrap());
        let (p16, v16) = outputs(&load_net_bytes(&cfg, &dev, &half).unwrap());
        for (a, b) in p32.iter().zip(&p16).chain(v32.iter().zip(&v16)) {
            assert!((a - b).abs() < 2e-3, "{a} against {b}");
        }
        // Back to f32 from f16 is exact: the rounding happened once.
        let again = convert_weights(&cfg, &half, Precision::F32).unwrap();
        let (p, v) = outputs(&load_net_bytes(&cfg, &dev, &again).unwrap());
        assert_eq!((p, v), (p16, v16));
    }

    #[test]
    fn precisions_read_and_print_as_their_names() {
        for p in [Precision::F16, Precision::F32] {
            assert_eq!(p.to_string().parse::<Precision>(), Ok(p));
        }
        let err = "f8".parse::<Precision>().unwrap_err();
        assert!(err.contains("f8") && err.contains("f16 and f32"), "{err}");
    }

    #[test]
    fn weights_of_another_shape_or_damaged_bytes_are_refused_with_a_reason() {
        let net = PolicyValueNet::new(&small(), &crate::nn::device());
        let bytes = net_bytes(&net, Precision::F16).unwrap();
        let other = NetConfig {
            hidden: vec![32, 32],
            ..NetConfig::default()
        };
        let err = load_net_bytes(&other, &crate::nn::device(), &bytes).unwrap_err();
        assert!(err.to_string().contains("does not match"), "{err}");
        let err =
            load_net_bytes(&small(), &crate::nn::device(), &bytes[..bytes.len() / 2]).unwrap_err();
        assert!(err.to_string().contains("damaged"), "{err}");
    }
}
