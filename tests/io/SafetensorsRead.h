#pragma once

// The .safetensors reader on bytes held in memory, under the one file name its messages quote,
// and the tensor entries of the headers the tests write.
#include "io/SafetensorsReader.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace SafetensorsRead {

inline const QString kName = QStringLiteral("model.safetensors");

inline posenc::ReadResult<posenc::RowMatrixXf> read(const QByteArray &bytes,
                                                    const std::optional<QString> &tensor = std::nullopt,
                                                    const posenc::RowSelection &selection = posenc::RowSelection::all())
{
    return posenc::SafetensorsReader::readMatrix(bytes, kName, tensor, selection);
}

// One tensor entry of a header.
inline QByteArray entry(const QByteArray &name, const QByteArray &dtype, const QByteArray &shape,
                        const QByteArray &offsets)
{
    return '"' + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape + ",\"data_offsets\":" + offsets + '}';
}

} // namespace SafetensorsRead
