#pragma once

// Reading back what a test wrote or reads: a file's bytes, its JSON object, a PDF's page size.
#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSizeF>
#include <QString>

#include <optional>

namespace TestFiles {

// The whole file, or nothing when it cannot be read.
inline QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The JSON object a file holds; an empty one when it cannot be read or holds no object.
inline QJsonObject jsonObject(const QString &path)
{
    return QJsonDocument::fromJson(readAll(path)).object();
}

// /MediaBox [x0 y0 x1 y1] of the first page, in points.
inline std::optional<QSizeF> mediaBox(const QByteArray &pdf)
{
    using namespace Qt::StringLiterals;
    static const QRegularExpression box(
        uR"(/MediaBox\s*\[\s*([-0-9.]+)\s+([-0-9.]+)\s+([-0-9.]+)\s+([-0-9.]+)\s*\])"_s);
    const QRegularExpressionMatch m = box.match(QString::fromLatin1(pdf));
    if (!m.hasMatch())
        return std::nullopt;
    return QSizeF(m.captured(3).toDouble() - m.captured(1).toDouble(),
                  m.captured(4).toDouble() - m.captured(2).toDouble());
}

} // namespace TestFiles
