#include "MonkeyFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cmath>
#include <limits>

#include <sys/stat.h>

using namespace Qt::StringLiterals;

namespace monkey {

namespace {

QByteArray npy(const QByteArray &shape, const QByteArray &data)
{
    QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
    dict.append(QByteArray((64 - (10 + dict.size() + 1) % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    return bytes + data;
}

QByteArray noise(std::mt19937_64 &random, int bytes)
{
    QByteArray out;
    for (int i = 0; i < bytes; ++i)
        out.append(char(random()));
    return out;
}

} // namespace

QStringList writeHostileFiles(const QString &dir, std::mt19937_64 &random)
{
    QStringList files;
    const auto write = [&](const QString &name, const QByteArray &bytes, qint64 size = -1) {
        QFile file(dir + u'/' + name);
        if (!file.open(QIODevice::WriteOnly))
            return;
        file.write(bytes);
        if (size > 0)
            file.resize(size); // sparse
        files.append(file.fileName());
    };
    const QByteArray header = npy("(2, 2147483648)", {});
    write(u"wide.npy"_s, header, header.size() + qint64(2) * (qint64(1) << 31) * 4);
    QByteArray values;
    for (int i = 0; i < 64 * 32; ++i) {
        const float v = i == 100 ? std::numeric_limits<float>::quiet_NaN() : float(std::sin(i * 0.1));
        values.append(reinterpret_cast<const char *>(&v), sizeof(v));
    }
    write(u"nan-embeddings.npy"_s, npy("(64, 32)", values));
    write(u"truncated.npy"_s, npy("(64, 32)", values.left(100)));
    write(u"random.bin"_s, noise(random, 4096));
    write(u"random.npy"_s, "\x93NUMPY" + noise(random, 4096));
    write(u"random.json"_s, noise(random, 4096));
    write(u"config-1e400.json"_s, R"({"model_type": "llama", "max_position_embeddings": 1e400})");
    write(u"config-yarn.json"_s, R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 16384, "rope_scaling": {"rope_type": "yarn", "factor": 4,
        "original_max_position_embeddings": 4096, "beta_fast": 1e-308, "mscale": 1e308}})");
    write(u"config-null.json"_s, "null");
    write(u"config-42.json"_s, "42");
    write(u"config-bom.json"_s, "\xef\xbb\xbf{\"model_type\": \"llama\"}");
    write(u"config-deep.json"_s, QByteArray(20000, '[') + QByteArray(20000, ']'));
    // A count of 65,536 layers with a word where one of them belongs: said once, not once a layer.
    write(u"config-layers.json"_s,
          R"({"model_type": "qwen2_vl", "hidden_size": 1536, "num_attention_heads": 12, "num_hidden_layers": 65536,
              "max_window_layers": "abc", "use_sliding_window": true, "sliding_window": 4096,
              "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})");
    write(u"config-large.json"_s, "{\"model_type\": \"llama\", \"pad\": \"" + QByteArray(5 << 20, 'x') + "\"}");
    write(u"session.json"_s,
          R"({"params": {"d-model": 1e400, "max-len": -5, "encoding": "rope", "rope-type": "yarn"}})");
    write(u"cr.csv"_s, "0.5,0.25\r0.125,1\rabc,2\r");
    write(u"bom.csv"_s,
          "\xef\xbb\xbf"
          "0,1\n0.84,0.54\n0.91,-0.42\n");
    write(u"empty.csv"_s, QByteArray());
    // A pipe and a loop of links: opened on the GUI thread, either would wait or fail for ever.
    const QString fifo = dir + u"/config-fifo.json"_s;
    if (::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0)
        files.append(fifo);
    if (QFile::link(u"loop-b.json"_s, dir + u"/loop-a.json"_s)
        && QFile::link(u"loop-a.json"_s, dir + u"/loop-b.json"_s))
        files.append(dir + u"/loop-a.json"_s);
    files.append(dir);
    files.append(dir + u"/absent.npy"_s);
    return files;
}

QString writeHostileSettings(const QString &path, std::mt19937_64 &random)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile::remove(path);
    switch (std::uniform_int_distribution<int>(0, 3)(random)) {
    case 0: {
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(noise(random, 8192));
        return u"noise"_s;
    }
    case 1: {
        QSettings settings(path, QSettings::IniFormat);
        settings.setValue(u"params/d-model"_s, u"1e400"_s);
        settings.setValue(u"params/max-len"_s, -5);
        settings.setValue(u"params/encoding"_s, QStringList {u"rope"_s, u"alibi"_s});
        settings.setValue(u"params/rope-theta"_s, u"nan"_s);
        settings.setValue(u"window/geometry"_s, noise(random, 512));
        settings.setValue(u"window/state"_s, noise(random, 2048));
        settings.setValue(u"export/dpi"_s, u"-1e308"_s);
        settings.setValue(u"export/directory"_s, u"/nonexistent/\u0000/dir"_s);
        return u"values no control takes"_s;
    }
    case 2: {
        QSettings settings(path, QSettings::IniFormat);
        settings.setValue(u"params/d-model"_s, 1 << 20);
        settings.setValue(u"params/max-len"_s, 1 << 24); // past what a start restores
        return u"parameters too large to restore"_s;
    }
    default:
        return u"none"_s;
    }
}

std::pair<QString, QVariant> hostileSetting(std::mt19937_64 &random)
{
    static const QStringList keys = {u"export/format"_s,     u"export/preset"_s,   u"export/dpi"_s,
                                     u"export/directory"_s,  u"sessions/recent"_s, u"lessons/showAtStart"_s,
                                     u"lessons/textBelow"_s, u"params/d-model"_s,  u"window/geometry"_s};
    const QVariantList values = {QVariant(u"1e400"_s),
                                 QVariant(-1),
                                 QVariant(QStringList {u"a"_s, QString(300, u'x')}),
                                 QVariant(noise(random, 64)),
                                 QVariant(std::numeric_limits<double>::quiet_NaN()),
                                 QVariant(QString())};
    return {keys[std::uniform_int_distribution<qsizetype>(0, keys.size() - 1)(random)],
            values[std::uniform_int_distribution<qsizetype>(0, values.size() - 1)(random)]};
}

} // namespace monkey
