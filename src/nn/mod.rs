//! The policy/value network (burn, on the `flex` CPU backend or a GPU: [`Compute`]) and
//! everything around it: the model, the data it trains on, batched inference for the search,
//! training steps, checkpoints, TensorBoard logs. Without the `ml` feature only the data is
//! here: self-play's samples and the batches they make.

#[cfg(feature = "ml")]
mod config;
mod data;
#[cfg(feature = "ml")]
mod device;
#[cfg(feature = "ml")]
mod fast;
#[cfg(feature = "ml")]
mod inference;
#[cfg(feature = "ml")]
mod model;
mod sample;
#[cfg(feature = "ml")]
mod tb;
#[cfg(feature = "ml")]
mod trainer;
#[cfg(feature = "ml")]
mod weights;

#[cfg(feature = "ml")]
pub use config::{MAX_BLOCKS, MAX_CHANNELS, MAX_LAYERS, MAX_WIDTH, NetConfig, NetKind, NetTable};
pub use data::{Batch, SampleWindow};
#[cfg(feature = "ml")]
pub use device::Compute;
#[cfg(feature = "ml")]
pub use fast::FastMlp;
#[cfg(feature = "ml")]
pub use inference::NetInference;
#[cfg(feature = "ml")]
pub use model::{DenseWeights, MlpWeights, PolicyValueNet, forward_probabilities};
pub use sample::{MAX_TARGETS, Sample};
#[cfg(feature = "ml")]
pub use tb::TbLogger;
#[cfg(feature = "ml")]
pub use trainer::{Losses, TrainReport, TrainSteps, Trainer, drop_optimizer};
#[cfg(feature = "ml")]
pub use weights::{
    NamedTensor, NetWeights, Precision, average_weights, convert_weights, load_net, load_net_bytes,
    net_bytes, network_tensors,
};

#[cfg(feature = "ml")]
/// The CPU device: where player files load, and where `[net] device = "cpu"` computes.
pub fn device() -> burn::tensor::Device {
    burn::tensor::Device::flex()
}
