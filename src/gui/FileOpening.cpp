#include "FileOpening.h"

#include "io/StandardInput.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::FileOpening {

Kind kindOf(const QString &path)
{
    // "-" is standard input, held in a regular file (StandardInput).
    const auto where = StandardInput::file(path);
    const QString held = where ? where.value() : path;
    QFile file(held);
    // Only a regular file is read here, on the GUI thread: opening a FIFO waits for a writer.
    if (QFileInfo(held).isFile() && file.open(QIODevice::ReadOnly)) {
        const QByteArray head = file.read(16);
        if (head.startsWith("\x93NUMPY"))
            return Kind::Matrix;
        // safetensors: an 8-byte little-endian header length that the file holds, then the
        // header's JSON object. A session's text read as that length is far past its size.
        if (head.size() >= 9 && head.at(8) == '{') {
            quint64 length = 0;
            for (int i = 7; i >= 0; --i)
                length = (length << 8) | static_cast<unsigned char>(head.at(i));
            if (length >= 2 && length <= quint64(std::max<qint64>(0, file.size() - 8)))
                return Kind::Matrix;
        }
        if (head.trimmed().startsWith('{')) {
            // A model config (at most 4 MiB, ModelConfigFile) names its model; a session never does.
            if (file.size() <= (qint64(4) << 20)) {
                file.seek(0);
                const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
                if (object.contains(u"model_type"_s) || object.contains(u"architectures"_s))
                    return Kind::ModelConfig;
            }
            return Kind::Session;
        }
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"posenc"_s || suffix == u"json"_s)
        return Kind::Session;
    if (suffix == u"npy"_s || suffix == u"safetensors"_s)
        return Kind::Matrix;
    if (suffix == u"csv"_s)
        return Kind::CheckTable;
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
