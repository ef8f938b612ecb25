#pragma once

// Builders of .npy and .safetensors bytes, written here byte by byte from the formats' specs
// (not with the code under test), for tables of malformed and well-formed files.
#include <QByteArray>
#include <QtEndian>

#include <cstdint>
#include <vector>

namespace ReaderFiles {

// Magic, version, the little-endian header length (2 bytes in 1.0, 4 otherwise), then `header`
// exactly as given and `data`. `length` overrides the length field when >= 0.
inline QByteArray npy(const QByteArray &header, const QByteArray &data = {}, int major = 1, int minor = 0,
                      qint64 length = -1)
{
    QByteArray out("\x93NUMPY", 6);
    out.append(char(major)).append(char(minor));
    const quint32 field = quint32(length >= 0 ? length : header.size());
    char bytes[4];
    qToLittleEndian<quint32>(field, bytes);
    out.append(bytes, major == 1 ? 2 : 4);
    return out + header + data;
}

// A header line for a dict: the dict, then '\n'.
inline QByteArray dict(const QByteArray &descr, const QByteArray &shape, const QByteArray &fortran = "False")
{
    return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }\n";
}

// An 8-byte little-endian header length (or `length` when >= 0... as unsigned), the JSON, the data.
inline QByteArray safetensors(const QByteArray &json, const QByteArray &data, bool overrideLength = false,
                              quint64 length = 0)
{
    char field[8];
    qToLittleEndian<quint64>(overrideLength ? length : quint64(json.size()), field);
    return QByteArray(field, 8) + json + data;
}

// Little- or big-endian bytes of unsigned words of 1, 2, 4 or 8 bytes.
template<typename Word> QByteArray words(const std::vector<Word> &values, bool bigEndian = false)
{
    QByteArray out;
    for (const Word v : values) {
        char bytes[sizeof(Word)];
        if (bigEndian)
            qToBigEndian<Word>(v, bytes);
        else
            qToLittleEndian<Word>(v, bytes);
        out.append(bytes, sizeof(Word));
    }
    return out;
}

inline QByteArray zeros(qsizetype n)
{
    return QByteArray(n, '\0');
}

} // namespace ReaderFiles
