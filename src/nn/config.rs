//! The network's shape ([`NetConfig`]), as configs and player files hold it, with its bounds.

use super::Compute;
use serde::{Deserialize, Serialize};

/// The network's shape: a trunk, then a policy head and a value head; and the device it computes
/// on, which two configs may differ in and still be the same network (and the same run).
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// Where it trains and evaluates (`cpu` or `gpu`); not a part of its shape: weights move
    /// between devices, and a player file always loads on the CPU.
    #[serde(default, skip_serializing_if = "Compute::is_cpu")]
    pub device: Compute,
}

impl PartialEq for NetConfig {
    fn eq(&self, o: &NetConfig) -> bool {
        (self.kind, &self.hidden, self.blocks, self.channels)
            == (o.kind, &o.hidden, o.blocks, o.channels)
    }
}

impl Eq for NetConfig {}

/// [`NetConfig`] as a file may hold it: configs of older runs name `margin_head`, which is read
/// only to check that it is off (the network has no margin head).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NetConfigFile {
    kind: NetKind,
    #[serde(default = "default_hidden")]
    hidden: Vec<usize>,
    #[serde(default = "default_blocks")]
    blocks: usize,
    #[serde(default = "default_channels")]
    channels: usize,
    #[serde(default)]
    device: Compute,
    #[serde(default)]
    margin_head: bool,
}

impl TryFrom<NetConfigFile> for NetConfig {
    type Error = String;

    fn try_from(f: NetConfigFile) -> Result<NetConfig, String> {
        if f.margin_head {
            return Err(
                "net.margin_head = true is not supported: the network has a policy and \
                 a value head only; remove the key or set it to false"
                    .into(),
            );
        }
        let cfg = NetConfig {
            kind: f.kind,
            hidden: f.hidden,
            blocks: f.blocks,
            channels: f.channels,
            device: f.device,
        };
        // Checked as it is read, so no config or player file holds a shape that cannot be built.
        cfg.validate().map_err(|e| e.to_string())?;
        Ok(cfg)
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
            device: Compute::Cpu,
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
