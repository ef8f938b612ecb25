#pragma once

// The .npy reader on bytes held in memory, under the one file name its messages quote.
#include "io/NpyReader.h"

#include <QByteArray>
#include <QString>

namespace NpyRead {

inline const QString kName = QStringLiteral("test.npy");

inline posenc::ReadResult<posenc::RowMatrixXf> read(const QByteArray &bytes,
                                                    const posenc::RowSelection &selection = posenc::RowSelection::all())
{
    return posenc::NpyReader::readMatrix(bytes, kName, selection);
}

} // namespace NpyRead
