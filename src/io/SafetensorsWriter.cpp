#include "io/SafetensorsWriter.h"

#include "io/NpyWriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

using namespace Qt::StringLiterals;

namespace posenc {

QByteArray safetensorsHeader(const QString &name, std::int64_t rows, std::int64_t cols)
{
    const qint64 bytes = rows * cols * qint64(sizeof(float));
    const QJsonObject tensor {{u"dtype"_s, u"F32"_s},
                              {u"shape"_s, QJsonArray {qint64(rows), qint64(cols)}},
                              {u"data_offsets"_s, QJsonArray {0, bytes}}};
    QByteArray json = QJsonDocument(QJsonObject {{name, tensor}}).toJson(QJsonDocument::Compact);
    json.append(QByteArray((8 - json.size() % 8) % 8, ' '));
    char length[8] = {};
    qToLittleEndian<quint64>(quint64(json.size()), length);
    return QByteArray(length, 8) + json;
}

bool writeSafetensorsTo(QIODevice &device, const ConstBlockRef &table, const QString &name, WorkProgress *progress,
                        const std::atomic<bool> *cancel)
{
    const QByteArray header = safetensorsHeader(name, table.rows(), table.cols());
    if (progress)
        progress->expect(table.rows());
    return device.write(header) == header.size() && writeLittleEndianRows(device, table, progress, cancel);
}

} // namespace posenc
