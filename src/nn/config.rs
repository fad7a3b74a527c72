//! The network's shape ([`NetConfig`]), as configs and player files hold it, with its bounds.

use super::Compute;
use serde::{Deserialize, Serialize};

/// The network's shape: a trunk, then a policy head and a value head. Where it computes is not
/// a part of it: a device is given when a network is built ([`super::Trainer::new`],
/// [`super::NetWeights::from_bytes`]), and weights move between devices.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "NetConfigFile")]
pub struct NetConfig {
    /// `mlp` or `resnet`.
    pub kind: NetKind,
    /// Hidden layer widths of the MLP trunk (kind = "mlp").
    #[serde(default = "default_hidden")]
    pub hidden: Vec<usize>,
    /// Residual blocks of the conv trunk (kind = "resnet").
    #[serde(default = "default_blocks")]
    pub blocks: usize,
    /// Channels of the conv trunk (kind = "resnet").
    #[serde(default = "default_channels")]
    pub channels: usize,
}

/// A training config's `[net]` table: the network's shape, and the device the run trains and
/// evaluates on (`device = "gpu"`; the CPU, the default, is not written).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "NetConfigFile", into = "NetConfigFile")]
pub struct NetTable {
    /// The network's shape.
    pub shape: NetConfig,
    /// Where the run computes.
    pub device: Compute,
}

/// The `[net]` table as a file holds it. Configs of older runs name `margin_head`, which is
/// read only to check that it is off (the network has no margin head); `device` belongs to a
/// training config's table, not to a network's shape.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct NetConfigFile {
    kind: NetKind,
    #[serde(default = "default_hidden")]
    hidden: Vec<usize>,
    #[serde(default = "default_blocks")]
    blocks: usize,
    #[serde(default = "default_channels")]
    channels: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    device: Option<Compute>,
    #[serde(default, skip_serializing)]
    margin_head: bool,
}

impl NetConfigFile {
    /// The shape, checked as it is read, so that no config or player file holds a shape that
    /// cannot be built.
    fn shape(&self) -> Result<NetConfig, String> {
        if self.margin_head {
            return Err(
                "net.margin_head = true is not supported: the network has a policy and \
                 a value head only; remove the key or set it to false"
                    .into(),
            );
        }
        let cfg = NetConfig {
            kind: self.kind,
            hidden: self.hidden.clone(),
            blocks: self.blocks,
            channels: self.channels,
        };
        cfg.validate().map_err(|e| e.to_string())?;
        Ok(cfg)
    }
}

impl TryFrom<NetConfigFile> for NetConfig {
    type Error = String;

    fn try_from(f: NetConfigFile) -> Result<NetConfig, String> {
        if let Some(device) = f.device {
            return Err(format!(
                "device = \"{device}\" is not a part of a network's shape: a training config \
                 chooses it in its [net] table"
            ));
        }
        f.shape()
    }
}

impl TryFrom<NetConfigFile> for NetTable {
    type Error = String;

    fn try_from(f: NetConfigFile) -> Result<NetTable, String> {
        Ok(NetTable {
            shape: f.shape()?,
            device: f.device.unwrap_or_default(),
        })
    }
}

impl From<NetTable> for NetConfigFile {
    fn from(t: NetTable) -> NetConfigFile {
        NetConfigFile {
            kind: t.shape.kind,
            hidden: t.shape.hidden,
            blocks: t.shape.blocks,
            channels: t.shape.channels,
            device: Some(t.device).filter(|d| !d.is_cpu()),
            margin_head: false,
        }
    }
}

/// The trunk of the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NetKind {
    /// Fully connected layers over the flattened observation.
    Mlp,
    /// 3x3 convolutions with residual blocks over the 4x8 board.
    Resnet,
}

fn default_hidden() -> Vec<usize> {
    vec![256, 256]
}
fn default_blocks() -> usize {
    3
}
fn default_channels() -> usize {
    32
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            kind: NetKind::Mlp,
            hidden: default_hidden(),
            blocks: default_blocks(),
            channels: default_channels(),
        }
    }
}

impl std::fmt::Display for NetConfig {
    /// The shape in a few words: `mlp 256x256` (hidden widths), `resnet 10x128` (blocks x
    /// channels).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            NetKind::Mlp => {
                let widths: Vec<String> = self.hidden.iter().map(|h| h.to_string()).collect();
                write!(f, "mlp {}", widths.join("x"))
            }
            NetKind::Resnet => write!(f, "resnet {}x{}", self.blocks, self.channels),
        }
    }
}

/// The most hidden layers of an MLP trunk.
pub const MAX_LAYERS: usize = 8;
/// The widest hidden layer of an MLP trunk (eight times the shipped players'): 2048 x 2048
/// weights are 16 MiB in f32, so the largest trunk, its gradients and its optimiser state stay
/// within a GiB.
pub const MAX_WIDTH: usize = 2048;
/// The most residual blocks of a conv trunk.
pub const MAX_BLOCKS: usize = 32;
/// The most channels of a conv trunk: 32 blocks of 256 channels hold 38 million weights.
pub const MAX_CHANNELS: usize = 256;

impl NetConfig {
    /// Checks the shape before anything is built from it: an empty layer or trunk cannot be
    /// built, and a huge one would end the process by exhausting memory. Only the fields of the
    /// config's kind are read, so the other kind's defaults never matter. One line names the key.
    pub fn validate(&self) -> anyhow::Result<()> {
        use crate::util::check::check_range;
        match self.kind {
            NetKind::Mlp => {
                let layers = self.hidden.len();
                anyhow::ensure!(
                    (1..=MAX_LAYERS).contains(&layers),
                    "net.hidden must list 1 to {MAX_LAYERS} layer widths, not {layers}"
                );
                for (k, &width) in self.hidden.iter().enumerate() {
                    check_range(&format!("net.hidden[{k}]"), width, 1..=MAX_WIDTH)?;
                }
                Ok(())
            }
            NetKind::Resnet => {
                check_range("net.blocks", self.blocks, 1..=MAX_BLOCKS)?;
                check_range("net.channels", self.channels, 1..=MAX_CHANNELS)
            }
        }
    }
}
