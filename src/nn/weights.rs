//! Network weights as bytes (burnpack): loading them into a network, whatever float precision
//! they were stored in, and storing them again in full or half precision.

use super::NetConfig;
use super::model::PolicyValueNet;
use anyhow::bail;
use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::store::{BurnpackStore, FloatCastAdapter, ModuleSnapshot};
use burn::tensor::{Bytes, DType, Device, Tensor, TensorData};
use std::path::Path;
use std::sync::Arc;

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

/// A network to play with and its version, loaded once and shared by whoever plays with it in
/// this process: self-play and evaluation read the same network, and a clone shares it. It
/// becomes bytes only to leave the process ([`NetWeights::to_bytes`], [`NetWeights::from_bytes`]).
#[derive(Clone, Debug)]
pub struct NetWeights {
    net: NetConfig,
    network: Arc<super::NetInference>,
    version: u64,
}

impl NetWeights {
    /// `model`, a network of shape `net`, as the network of `version` (in a training run, the
    /// iteration that made it; 0: the initial one). A weight that is not a finite number is a
    /// one-line error, as it is for bytes.
    pub fn new(net: &NetConfig, model: PolicyValueNet, version: u64) -> anyhow::Result<NetWeights> {
        check_weights(&model)?;
        Ok(NetWeights {
            net: net.clone(),
            network: Arc::new(super::NetInference::new(model)),
            version,
        })
    }

    /// The network of shape `net` from burnpack bytes (f32 or f16), loaded on `device`: as it
    /// arrives from another process. Damaged or mismatched bytes are a one-line error.
    pub fn from_bytes(
        net: &NetConfig,
        device: super::Compute,
        bytes: &[u8],
        version: u64,
    ) -> anyhow::Result<NetWeights> {
        let model = load_net_bytes(net, &device.device()?, bytes)?;
        NetWeights::new(net, model, version)
    }

    /// The network as f32 burnpack bytes, for another process: [`NetWeights::from_bytes`] of
    /// them computes exactly what this network computes.
    pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
        net_bytes(self.network.net(), Precision::F32)
    }

    /// The network's shape.
    pub fn net(&self) -> &NetConfig {
        &self.net
    }

    /// Which network this is: in a training run, the iteration that made it.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The network ready for inference, shared: every caller reads the same one.
    pub fn inference(&self) -> &Arc<super::NetInference> {
        &self.network
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
        anyhow::anyhow!("the network is damaged or does not match the config's {cfg}: {e}")
    })?;
    check_weights(&net)?;
    Ok(net)
}

/// The largest weight a network may hold: trained weights stay far below it, and a network with
/// larger ones (damaged, or diverged) computes nothing but infinities and NaN.
const MAX_WEIGHT: f32 = 1e9;

/// Refuses a network holding a weight that is NaN, infinite or beyond [`MAX_WEIGHT`]: such a
/// network would answer `NaN` for every position.
fn check_weights(net: &PolicyValueNet) -> anyhow::Result<()> {
    for (k, values) in FloatParams::of(net).iter().enumerate() {
        if let Some(w) = values
            .iter()
            .find(|w| !w.is_finite() || w.abs() > MAX_WEIGHT)
        {
            bail!(
                "the network is damaged: parameter {k} holds the weight {w} (weights must be finite numbers within {MAX_WEIGHT:e})"
            );
        }
    }
    Ok(())
}

/// A network of shape `cfg` from a burnpack file, with a clear error for a missing, damaged or
/// mismatched file.
pub fn load_net(cfg: &NetConfig, dev: &Device, path: &Path) -> anyhow::Result<PolicyValueNet> {
    if !path.is_file() {
        bail!("network file {} does not exist", path.display());
    }
    let bytes =
        crate::util::fs::read_bounded(path, crate::util::fs::limits::NETWORK, "network file")?;
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

/// The mean of several networks' weights, all of shape `cfg` (burnpack bytes, f32 or f16), stored
/// in `precision`: of one run's last checkpoints (stochastic weight averaging, as KataGo plays), or
/// of the final networks of runs from one start (a model soup, which the shipped Kiswahili player
/// is; docs/STRENGTH.md has what each was worth). Only parameters are averaged: a conv net's
/// batch-norm statistics are those of the first network.
pub fn average_weights<B: AsRef<[u8]>>(
    cfg: &NetConfig,
    nets: &[B],
    precision: Precision,
) -> anyhow::Result<Vec<u8>> {
    let dev = super::device();
    let Some((first, rest)) = nets.split_first() else {
        bail!("no networks to average");
    };
    let first = load_net_bytes(cfg, &dev, first.as_ref())?;
    let mut sums = FloatParams::of(&first);
    for bytes in rest {
        let params = FloatParams::of(&load_net_bytes(cfg, &dev, bytes.as_ref())?);
        for (sum, param) in sums.iter_mut().zip(params) {
            sum.iter_mut().zip(param).for_each(|(s, x)| *s += x);
        }
    }
    let scale = 1.0 / nets.len() as f32;
    sums.iter_mut().flatten().for_each(|s| *s *= scale);
    let mut mean = Replace {
        values: sums.into_iter(),
        dev,
    };
    net_bytes(&first.map(&mut mean), precision)
}

/// Every float parameter of a network, flattened, in the order the module visits them.
struct FloatParams(Vec<Vec<f32>>);

impl FloatParams {
    fn of(net: &PolicyValueNet) -> Vec<Vec<f32>> {
        let mut params = FloatParams(Vec::new());
        net.visit(&mut params);
        params.0
    }
}

impl ModuleVisitor for FloatParams {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let values = param.val().into_data().convert::<f32>().try_to_vec::<f32>();
        self.0.push(values.expect("f32 after conversion"));
    }
}

/// Puts new values, in visiting order, into a network's float parameters (shapes unchanged).
struct Replace {
    values: std::vec::IntoIter<Vec<f32>>,
    dev: Device,
}

impl ModuleMapper for Replace {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let values = self.values.next().expect("one value list per parameter");
        let dev = self.dev.clone();
        param.map(|t| Tensor::from_data(TensorData::new(values, t.shape()), &dev))
    }
}

/// A tensor of a network: its shape and its values as `f32`.
pub type NamedTensor = (Vec<usize>, Vec<f32>);

/// The tensors of a network in burnpack bytes, by name. Two networks compute the same exactly
/// when these are equal; their files' bytes may differ, since they also hold parameter ids,
/// which are random.
pub fn network_tensors(
    bytes: &[u8],
) -> anyhow::Result<std::collections::BTreeMap<String, NamedTensor>> {
    use burn::store::ModuleStore;
    let mut store = BurnpackStore::from_bytes(Some(Bytes::from_bytes_vec(bytes.to_vec())));
    let tensors = store
        .get_all_tensors()
        .map_err(|e| anyhow::anyhow!("not a network (burnpack) file: {e}"))?;
    tensors
        .iter()
        .map(|(name, t)| {
            let data = burn::store::bridge::to_data(t)
                .map_err(|e| anyhow::anyhow!("tensor {name} is damaged: {e}"))?
                .convert::<f32>();
            let values = data
                .try_to_vec::<f32>()
                .map_err(|e| anyhow::anyhow!("tensor {name} is not made of floats: {e:?}"))?;
            Ok((name.clone(), (data.shape().to_vec(), values)))
        })
        .collect()
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
    fn a_network_from_its_bytes_computes_what_the_shared_network_computes_bit_for_bit() {
        let resnet = NetConfig {
            kind: crate::nn::NetKind::Resnet,
            blocks: 1,
            channels: 8,
            ..NetConfig::default()
        };
        let (obs, masks) = crate::nn::fast::tests::positions(20);
        for cfg in [small(), resnet] {
            let model = PolicyValueNet::new_seeded(&cfg, &crate::nn::device(), 5);
            let shared = NetWeights::new(&cfg, model, 4).unwrap();
            let bytes = shared.to_bytes().unwrap();
            let back = NetWeights::from_bytes(&cfg, super::super::Compute::Cpu, &bytes, 4).unwrap();
            assert_eq!(
                back.inference().forward(&obs, &masks, 20),
                shared.inference().forward(&obs, &masks, 20),
                "{cfg}"
            );
            // Clones share the one network.
            assert!(Arc::ptr_eq(shared.clone().inference(), shared.inference()));
        }
    }

    #[test]
    fn a_network_with_a_weight_that_is_not_a_number_is_refused_shared_or_from_bytes() {
        let cfg = small();
        let model = PolicyValueNet::new(&cfg, &crate::nn::device()).map(&mut Poison);
        let bytes = net_bytes(&model, Precision::F32).unwrap();
        let err = NetWeights::new(&cfg, model, 1).unwrap_err().to_string();
        assert!(err.contains("damaged"), "{err}");
        let err = NetWeights::from_bytes(&cfg, super::super::Compute::Cpu, &bytes, 1)
            .unwrap_err()
            .to_string();
        assert!(err.contains("damaged"), "{err}");
    }

    /// Makes every float parameter NaN.
    struct Poison;

    impl ModuleMapper for Poison {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            param.map(|t| t.mul_scalar(f32::NAN))
        }
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

    #[test]
    fn the_average_of_networks_has_the_mean_of_their_weights() {
        let cfg = small();
        let dev = crate::nn::device();
        let nets: Vec<PolicyValueNet> = (1..=3)
            .map(|seed| PolicyValueNet::new_seeded(&cfg, &dev, seed))
            .collect();
        let bytes: Vec<Vec<u8>> = nets
            .iter()
            .map(|n| net_bytes(n, Precision::F32).unwrap())
            .collect();
        let mean = load_net_bytes(
            &cfg,
            &dev,
            &average_weights(&cfg, &bytes, Precision::F32).unwrap(),
        )
        .unwrap();
        let params: Vec<Vec<Vec<f32>>> = nets.iter().map(FloatParams::of).collect();
        let got = FloatParams::of(&mean);
        assert_eq!(got.len(), params[0].len());
        for (k, layer) in got.iter().enumerate() {
            for (i, w) in layer.iter().enumerate() {
                let want = params.iter().map(|p| p[k][i]).sum::<f32>() / 3.0;
                assert!(
                    (w - want).abs() < 1e-6,
                    "parameter {k}[{i}]: {w} against {want}"
                );
            }
        }
        // One network is its own average; none is an error that says so.
        let one = average_weights(&cfg, &bytes[..1], Precision::F32).unwrap();
        assert_eq!(
            outputs(&load_net_bytes(&cfg, &dev, &one).unwrap()),
            outputs(&nets[0])
        );
        let err = average_weights::<Vec<u8>>(&cfg, &[], Precision::F32).unwrap_err();
        assert!(err.to_string().contains("no networks"), "{err}");
    }
}
