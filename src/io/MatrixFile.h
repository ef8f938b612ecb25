#pragma once

#include "core/Block.h"
#include "io/ArrayRows.h"
#include "io/ReadError.h"
#include "io/TensorInfo.h"

#include <QString>

#include <atomic>
#include <optional>
#include <vector>

namespace posenc {

// Where a matrix comes from: "FILE" or "FILE:TENSOR" (a tensor of a .safetensors file, an array
// of a .npz file).
struct MatrixSource
{
    QString path;
    std::optional<QString> tensor; // "FILE:" names the tensor ""; "FILE" names none

    // Split at the first ':' whose prefix is an existing .npy, .npz or .safetensors file, so that a
    // tensor name may hold ':'; else the whole text when it names an existing file; else split
    // at the last ':'.
    static MatrixSource parse(const QString &text);
    QString toString() const;
};

// The entry point for the command line and the window: .npy or .safetensors, told apart by the
// .npy magic and the .safetensors extension.
namespace MatrixFile {

// Every array of the file with its dtype and shape, for a tensor picker; reads headers only.
ReadResult<std::vector<TensorInfo>> list(const QString &path);

// The chosen matrix's dtype and shape, checked to be loadable; reads headers only, so a caller
// can check its memory budget before load().
ReadResult<TensorInfo> inspect(const MatrixSource &source);

// The selected rows of the chosen matrix as float32; fails as cancelled within one chunk of
// reading once `cancel` is set.
ReadResult<RowMatrixXf> load(const MatrixSource &source, const RowSelection &selection,
                             const std::atomic<bool> *cancel = nullptr);

} // namespace MatrixFile

} // namespace posenc
