//! Batches of observations and masks as burn tensors (feature `ml`).

use super::action::ACTIONS;
use super::observation::{COLS, OBS_CHANNELS, OBS_LEN, ROWS};
use burn::tensor::{Bool, Device, Tensor, TensorData};

/// A flat buffer whose length does not match the batch size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} buffer holds {found} values; a batch of {batch} needs {expected}")]
pub struct BatchShapeError {
    /// `observation` or `mask`.
    pub what: &'static str,
    /// The batch size given.
    pub batch: usize,
    /// Values needed.
    pub expected: usize,
    /// Values given.
    pub found: usize,
}

fn check(
    what: &'static str,
    len: usize,
    batch: usize,
    per_item: usize,
) -> Result<(), BatchShapeError> {
    let expected = batch * per_item;
    if len == expected {
        Ok(())
    } else {
        Err(BatchShapeError {
            what,
            batch,
            expected,
            found: len,
        })
    }
}

/// Observations `[batch * OBS_LEN]` (as in `VecEnv::obs`) as a tensor `[batch, OBS_CHANNELS, 4, 8]`.
pub fn obs_tensor(
    obs: &[f32],
    batch: usize,
    device: &Device,
) -> Result<Tensor<4>, BatchShapeError> {
    check("observation", obs.len(), batch, OBS_LEN)?;
    Ok(Tensor::<4>::from_data(
        TensorData::new(obs.to_vec(), [batch, OBS_CHANNELS, ROWS, COLS]),
        device,
    ))
}

/// Float masks `[batch * 64]` (1.0 legal, as in `VecEnv::masks`) as a tensor `[batch, 64]`.
pub fn mask_tensor(
    masks: &[f32],
    batch: usize,
    device: &Device,
) -> Result<Tensor<2>, BatchShapeError> {
    check("mask", masks.len(), batch, ACTIONS)?;
    Ok(Tensor::<2>::from_data(
        TensorData::new(masks.to_vec(), [batch, ACTIONS]),
        device,
    ))
}

/// Bitmasks (as in `VecEnv::mask_bits`) as a boolean tensor `[batch, 64]`, true = legal.
pub fn mask_bits_tensor(bits: &[u64], device: &Device) -> Tensor<2, Bool> {
    let flat: Vec<bool> = bits
        .iter()
        .flat_map(|&b| (0..ACTIONS).map(move |a| b >> a & 1 == 1))
        .collect();
    Tensor::<2, Bool>::from_data(TensorData::new(flat, [bits.len(), ACTIONS]), device)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_values_survive_the_trip() {
        let dev = Device::flex();
        let obs: Vec<f32> = (0..2 * OBS_LEN).map(|i| i as f32).collect();
        let t = obs_tensor(&obs, 2, &dev).unwrap();
        assert_eq!(t.dims(), [2, OBS_CHANNELS, 4, 8]);
        let back = t.into_data().try_to_vec::<f32>().unwrap();
        assert_eq!(back, obs);
        assert!(obs_tensor(&obs, 3, &dev).is_err());
        let mut masks = vec![0.0; 2 * ACTIONS];
        masks[ACTIONS + 5] = 1.0;
        let m = mask_tensor(&masks, 2, &dev).unwrap();
        assert_eq!(m.dims(), [2, ACTIONS]);
        let e = mask_tensor(&masks, 1, &dev).unwrap_err();
        assert_eq!((e.expected, e.found), (ACTIONS, 2 * ACTIONS));
        let b = mask_bits_tensor(&[1, 1 << 63], &dev);
        let v = b.into_data().try_to_vec::<bool>().unwrap();
        assert!(v[0] && !v[1] && v[ACTIONS + 63] && !v[ACTIONS]);
    }
}
