// `posenc check --config`'s report as a person reads it (ConfigCheckTable): one row per layer
// group within 100 columns, a "?" on each number that is a guess and on nothing else, then where
// every number comes from; --json names the same sources per layer ("sources"), and --verbose
// keeps the key-per-line dump.
#include "ConfigCheckRun.h"
#include "support/TestMain.h"

#include <QDirIterator>
#include <QTest>

namespace tst_cliconfigtable {
using namespace ConfigCheckRun;

namespace {

// Every config the tests read, the shared ones and the held-in ones.
QStringList everyConfig()
{
    QStringList paths;
    QDirIterator it(QStringLiteral(POSENC_CONFIGS), {u"*.json"_s}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (!path.endsWith(u".truth.json"_s))
            paths.append(path);
    }
    paths.sort();
    return paths;
}

QProcessEnvironment wide(int columns)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"COLUMNS"_s, QString::number(columns));
    return environment;
}

// The table's rows: the lines after the header "layer type ..." until a blank line or a block.
QStringList tableRows(const QString &out)
{
    const QStringList lines = out.split(u'\n');
    const qsizetype header
        = std::find_if(lines.cbegin(), lines.cend(), [](const QString &l) { return l.startsWith(u"layer type "_s); })
        - lines.cbegin();
    QStringList rows;
    for (qsizetype i = header + 1; i < lines.size(); ++i) {
        if (lines[i].isEmpty() || lines[i] == u"layers:"_s || lines[i].startsWith(u"? "_s))
            break;
        rows.append(lines[i]);
    }
    return rows;
}

} // namespace

class TestCliConfigTable : public QObject
{
    Q_OBJECT

private slots:
    void everyConfigAsATable_data();
    void everyConfigAsATable();
    void sourcesNameKeysDefaultsAndGuesses_data();
    void sourcesNameKeysDefaultsAndGuesses();
    void verboseKeepsTheDump();
};

void TestCliConfigTable::everyConfigAsATable_data()
{
    QTest::addColumn<QString>("path");
    for (const QString &path : everyConfig())
        QTest::newRow(qPrintable(QFileInfo(path).completeBaseName())) << path;
}

void TestCliConfigTable::everyConfigAsATable()
{
    QFETCH(QString, path);
    const Checked json = checkJson(path);
    const Run text = posenc({u"check"_s, u"--config"_s, path}, wide(100));
    QCOMPARE(text.exitCode, json.run.exitCode);
    if (json.json.isEmpty())
        return; // refused before any layer (a value no model could mean): said on stderr alike
    for (const QString &line : text.out.split(u'\n'))
        QVERIFY2(line.size() <= 100, qPrintable(line));
    // A row per layer type, in the JSON's order; a "?" where, and only where, a source is a guess.
    const QJsonArray layers = json.json.value(u"layers"_s).toArray();
    const QStringList rows = tableRows(text.out);
    QCOMPARE(rows.size(), layers.size());
    bool anyGuess = false;
    for (qsizetype i = 0; i < layers.size(); ++i) {
        const QJsonObject layer = layers[i].toObject();
        const QString type = layer.value(u"layer_type"_s).toString();
        QVERIFY2(rows[i].startsWith(type)
                     || (rows[i].contains(u"..."_s) && type.startsWith(rows[i].section(u"..."_s, 0, 0))),
                 qPrintable(rows[i] + u" / "_s + type));
        const QJsonObject sources = layer.value(u"sources"_s).toObject();
        QVERIFY2(!sources.isEmpty(), qPrintable(type));
        bool guess = false;
        for (auto it = sources.begin(); it != sources.end(); ++it) {
            const QString source = it.value().toString();
            QVERIFY2(source.startsWith(u"key "_s) || source.startsWith(u"default "_s) || source.startsWith(u"code "_s)
                         || source.startsWith(u"guess "_s),
                     qPrintable(it.key() + u": "_s + source));
            guess = guess || source.startsWith(u"guess "_s);
        }
        anyGuess = anyGuess || guess;
        QCOMPARE(rows[i].contains(u'?'), guess);
    }
    QCOMPARE(text.out.contains(u"\n? a guess: "_s), anyGuess);
    // A config whose scheme is unknown has no layers, and no numbers to source.
    QCOMPARE(text.out.contains(u"\nwhere the numbers come from:\n"_s), !layers.isEmpty());
    QCOMPARE(layers.isEmpty(), text.out.contains(u"scheme-unknown"_s));
}

void TestCliConfigTable::sourcesNameKeysDefaultsAndGuesses_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("layerType");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("source");
    QTest::newRow("a key") << u"Meta-Llama-3.1-8B"_s << u"full_attention"_s << u"rope_theta"_s << u"key rope_theta"_s;
    QTest::newRow("a key in text_config") << u"heldin/EXAONE-4.5-33B"_s << u"sliding_attention"_s << u"rope_theta"_s
                                          << u"key text_config.rope_scaling.rope_theta"_s;
    QTest::newRow("a class default") << u"heldin/ERNIE-4.5-21B-A3B"_s << u"full_attention"_s << u"rope_theta"_s
                                     << u"default Ernie4_5_MoeConfig's rope_theta"_s;
    QTest::newRow("the code's pairs")
        << u"heldin/ERNIE-4.5-21B-A3B"_s << u"full_attention"_s << u"rope_layout"_s
        << u"code models/ernie4_5_moe/modeling_ernie4_5_moe.py (adjacent pairs (2i, 2i + 1))"_s;
    QTest::newRow("a guess of the code")
        << u"heldin/MiMo-V2.5-Pro"_s << u"full_attention"_s << u"rope_layout"_s
        << u"guess models/llama/modeling_llama.py (rotate_half's pairs (i, i + r/2)), as "
           "model_type mimo_v2 is not in posenc's table"_s;
    QTest::newRow("a key of an unknown type")
        << u"heldin/MiMo-V2.5-Pro"_s << u"sliding_attention"_s << u"rope_theta"_s << u"key swa_rope_theta"_s;
    QTest::newRow("a NoPE layer's key") << u"SmolLM3-3B"_s << u"full_attention:nope"_s << u"encoding"_s
                                        << u"key no_rope_layer_interval"_s;
    QTest::newRow("a scale's key") << u"heldin/Falcon-H1-0.5B"_s << u"full_attention"_s << u"softmax_scale"_s
                                   << u"key key_multiplier (head_dim^-0.5 * key_multiplier)"_s;
}

void TestCliConfigTable::sourcesNameKeysDefaultsAndGuesses()
{
    QFETCH(QString, config);
    QFETCH(QString, layerType);
    QFETCH(QString, field);
    QFETCH(QString, source);
    const Checked c = checkJson(fixture(config));
    QCOMPARE(c.layer(layerType).value(u"sources"_s).toObject().value(field).toString(), source);
}

void TestCliConfigTable::verboseKeepsTheDump()
{
    const Run table = posenc({u"check"_s, u"--config"_s, fixture(u"gemma-3-1b-it"_s)});
    QVERIFY(!table.out.contains(u"rope_theta: 10000\n"_s));
    const Run verbose = posenc({u"check"_s, u"--config"_s, fixture(u"gemma-3-1b-it"_s), u"--verbose"_s});
    QCOMPARE(verbose.exitCode, 0);
    QVERIFY(verbose.out.contains(u"layer_type: full_attention\nlayers: 5, 11, 17, 23 (4)\n"_s));
    QVERIFY(verbose.out.contains(u"rope_theta: 10000\n"_s));
    QVERIFY(verbose.out.contains(tableRows(table.out).join(u'\n')));
    const Run both = posenc({u"check"_s, u"--config"_s, fixture(u"gemma-3-1b-it"_s), u"--verbose"_s, u"--json"_s});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains(u"--verbose"_s), qPrintable(both.err));
}

POSENC_TEST_GUILESS_MAIN(TestCliConfigTable)
} // namespace tst_cliconfigtable
#include "tst_cliconfigtable.moc"
