#include "FileOpening.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace posenc::FileOpening {

Kind kindOf(const QString &path)
{
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        const QByteArray head = file.read(16);
        if (head.startsWith("\x93NUMPY"))
            return Kind::Matrix;
        // safetensors: an 8-byte little-endian header length, then the header's JSON object.
        if (head.size() >= 9 && head.at(8) == '{')
            return Kind::Matrix;
        if (head.trimmed().startsWith('{'))
            return Kind::Session;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"posenc"_s || suffix == u"json"_s)
        return Kind::Session;
    if (suffix == u"npy"_s || suffix == u"safetensors"_s)
        return Kind::Matrix;
    return Kind::Unknown;
}

std::optional<bool> isPositionTable(const QString &name)
{
    const QString lower = name.toLower();
    if (lower.contains(u"wpe"_s) || lower.contains(u"position"_s))
        return true;
    static const QRegularExpression tokens(u"wte|word_emb|embed_tokens|tok_emb|token_emb|embed_in\\b"_s);
    if (lower.contains(tokens))
        return false;
    return std::nullopt;
}

} // namespace posenc::FileOpening
