#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

// A C-order little-endian .npy of `shape` (any rank) and numpy's `descr`, holding `values` as they
// are: '<f4' one float a cell, '<c8' two (real, then imaginary).
inline QByteArray npyOfFloats(const std::vector<std::int64_t> &shape, const std::vector<float> &values,
                              const QByteArray &descr = QByteArrayLiteral("<f4"))
{
    using namespace Qt::StringLiterals;
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    const QByteArray text = (u"("_s + dims.join(u", "_s) + (shape.size() == 1 ? u","_s : u""_s) + u")"_s).toUtf8();
    QByteArray dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + text + ", }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    bytes.append(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
    return bytes;
}

// A C-order little-endian float32 .npy of `shape` (any rank), the values rounded once to float32:
// the tables the command-line tests write for posenc check.
inline QByteArray npy(const std::vector<std::int64_t> &shape, const std::vector<double> &values)
{
    return npyOfFloats(shape, std::vector<float>(values.begin(), values.end()));
}
