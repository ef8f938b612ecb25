// The command line's grammar as a user meets it (docs/ARCHITECTURE.md, Command line): options
// before the command as after it (`posenc --d-model 64 check pe.npy` was answered "unknown command
// check"), "-" for standard input wherever a file is read, piped or redirected (`posenc check -`
// found no file named "-"), and every usage line the help pages list runs as it stands (`posenc
// describe`, listed bare, exited 2). The options that read a file and the usage lines come from the
// program's own command list, so that a new one is covered or named here.
#include "CliRun.h"
#include "support/TestMain.h"

#include "cli/Commands.h"

#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

namespace tst_cligrammar {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The options whose FILE is written, not read: "-" is standard output there (tst_cliconventions).
const QStringList kWrittenFiles {u"output"_s, u"screenshot"_s};

CliRun::BinaryRun run(const QStringList &arguments, const QString &workingDirectory,
                      const QString &standardInputFile = {}, const QByteArray &piped = {}, bool pipe = false)
{
    QProcess process;
    process.setProcessEnvironment(CliRun::windowEnvironment(workingDirectory + u"/config"_s));
    process.setWorkingDirectory(workingDirectory);
    if (!standardInputFile.isEmpty())
        process.setStandardInputFile(standardInputFile);
    process.start(QStringLiteral(POSENC_EXECUTABLE), arguments);
    if (pipe) {
        process.write(piped);
        process.closeWriteChannel();
    }
    if (!process.waitForFinished(300000))
        return {};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            QString::fromUtf8(process.readAllStandardError())};
}

QStringList words(const QString &line)
{
    return line.split(u' ', Qt::SkipEmptyParts);
}

// A usage line without its optional parts: "posenc export --lesson NAME [FIGURE] -o FILE
// [OPTIONS]" is "posenc export --lesson NAME -o FILE". Brackets may nest and hold spaces.
QString required(const QString &usage)
{
    QString kept;
    int depth = 0;
    for (const QChar c : usage) {
        if (c == u'[')
            ++depth;
        else if (c == u']')
            --depth;
        else if (depth == 0)
            kept.append(c);
    }
    return kept.simplified();
}

// A command line whose "{}" is a file, run once with its path and once with "-" and the file's
// bytes on standard input; what it covers: an option's name, or "COMMAND ARG" for a command's
// argument ("window ARG": posenc FILE).
struct StandardInputRow
{
    QString name;
    QString command;
    QString covers;
    QString file;
};

QList<StandardInputRow> standardInputRows(const QString &config)
{
    const QString llamaCos = u"export rope-frequencies -o - --format png --size 16x12cm --config {}"_s;
    return {
        {u"check FILE .npy"_s, u"check {}"_s, u"check ARG"_s, u"pe.npy"_s},
        {u"check FILE .csv"_s, u"check {} --json"_s, u"check ARG"_s, u"pe.csv"_s},
        {u"check FILE:TENSOR"_s, u"check {}:pe"_s, u"check ARG"_s, u"pe.safetensors"_s},
        {u"check --config"_s, u"check --config {}"_s, u"config"_s, config},
        {u"check --expect-table"_s, u"check pe.npy --expect-table {}"_s, u"expect-table"_s, u"pe.npy"_s},
        {u"check --expect-config"_s, u"check cos.npy --expect-config {}"_s, u"expect-config"_s, config},
        {u"check --apply X"_s, u"check --apply {} q_rotated.npy"_s, u"apply"_s, u"q.npy"_s},
        {u"check --apply Y"_s, u"check --apply q.npy {}"_s, u"check ARG"_s, u"q_rotated.npy"_s},
        {u"table --config"_s, u"table rope-cos -o - --format csv --max-len 4 --config {}"_s, u"config"_s, config},
        {u"table --session"_s, u"table pe -o - --format csv --session {}"_s, u"session"_s, u"session.posenc"_s},
        {u"table --position-table"_s, u"table pe -o - --format csv --encoding learned --position-table {}"_s,
         u"position-table"_s, u"pe.npy"_s},
        {u"table --embeddings"_s, u"table embedding -o - --format csv --d-model 64 --embeddings {}"_s, u"embeddings"_s,
         u"pe.npy"_s},
        {u"export --config"_s, llamaCos, u"config"_s, config},
        {u"table --attention-mask"_s, u"table position-ids -o - --format csv --attention-mask {}"_s,
         u"attention-mask"_s, u"mask.npy"_s},
        {u"table --document-ids"_s, u"table position-ids -o - --format csv --document-ids {}"_s, u"document-ids"_s,
         u"documents.npy"_s},
        {u"check --position-ids"_s, u"check --position-ids {} --batch left:3,4 --max-len 4"_s, u"position-ids"_s,
         u"ids.npy"_s},
        {u"describe --config"_s, u"describe --config {}"_s, u"config"_s, config},
        {u"the window's FILE"_s, u"{} --screenshot shot.png --size 800x600"_s, u"window ARG"_s, u"session.posenc"_s},
        {u"the window's --session"_s, u"--session {} --screenshot shot.png --size 800x600"_s, u"session"_s,
         u"session.posenc"_s},
    };
}

} // namespace

class TestCliGrammar : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void optionsBeforeTheCommandAreItsOwn_data();
    void optionsBeforeTheCommandAreItsOwn();
    void anOptionsValueIsNeverTheCommand();
    void standardInputWhereverAFileIsRead_data();
    void standardInputWhereverAFileIsRead();
    void everyOptionThatReadsAFileTakesStandardInput();
    void everyListedUsageWorks_data();
    void everyListedUsageWorks();

private:
    QTemporaryDir m_dir;
    QString m_config = QStringLiteral(POSENC_CONFIGS) + u"/Meta-Llama-3.1-8B.json"_s;
};

void TestCliGrammar::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString dir = m_dir.path();
    // The files the commands below read: a sinusoid as .npy, .safetensors and .csv, Llama 3.1's
    // cos table, a query before and after RoPE (posenc's own, checked correct in tst_cliapply's
    // terms: X the embeddings, Y rope-input at d = head_dim), a session.
    const QStringList rope {u"--encoding"_s, u"rope"_s, u"--d-model"_s, u"64"_s,
                            u"--head-dim"_s, u"64"_s,   u"--max-len"_s, u"32"_s};
    const QList<QStringList> writes {
        {u"table"_s, u"pe"_s, u"-o"_s, u"pe.npy"_s, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"32"_s},
        {u"table"_s, u"pe"_s, u"-o"_s, u"pe.safetensors"_s, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"32"_s},
        {u"table"_s, u"pe"_s, u"-o"_s, u"pe.csv"_s, u"--d-model"_s, u"16"_s, u"--max-len"_s, u"8"_s},
        {u"table"_s, u"rope-cos"_s, u"-o"_s, u"cos.npy"_s, u"--preset"_s, u"llama-3-1-8b"_s, u"--max-len"_s, u"64"_s},
        QStringList {u"table"_s, u"embedding"_s, u"-o"_s, u"q.npy"_s} + rope,
        QStringList {u"table"_s, u"rope-input"_s, u"-o"_s, u"q_rotated.npy"_s} + rope,
    };
    for (const QStringList &arguments : writes) {
        const CliRun::BinaryRun made = run(arguments, dir);
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    }
    // A batch of two rows, the first left-padded by one: its mask, its documents (-1 padding) and the
    // reference's ids for it.
    QVERIFY(CliRun::writeNpy(m_dir.filePath(u"mask.npy"_s), 2, 4, {0, 1, 1, 1, 1, 1, 1, 1}));
    QVERIFY(CliRun::writeNpy(m_dir.filePath(u"documents.npy"_s), 2, 4, {-1, 0, 0, 0, 0, 0, 1, 1}));
    QVERIFY(CliRun::writeNpy(m_dir.filePath(u"ids.npy"_s), 2, 4, {1, 0, 1, 2, 0, 1, 2, 3}));
    QFile session(m_dir.filePath(u"session.posenc"_s));
    QVERIFY(session.open(QIODevice::WriteOnly));
    session.write(R"({"format": "posenc-session", "version": 1, "params": {"d-model": "48", "max-len": "40"}})");
}

void TestCliGrammar::optionsBeforeTheCommandAreItsOwn_data()
{
    QTest::addColumn<QStringList>("before");
    QTest::addColumn<QStringList>("after");
    QTest::newRow("table") << words(u"--d-model 16 --max-len 4 table pe -o - --format csv"_s)
                           << words(u"table pe -o - --format csv --d-model 16 --max-len 4"_s);
    QTest::newRow("export") << words(u"--size 6x4cm --d-model 16 export heatmap -o - --format svg"_s)
                            << words(u"export heatmap -o - --format svg --size 6x4cm --d-model 16"_s);
    QTest::newRow("check") << words(u"--json check pe.npy"_s) << words(u"check pe.npy --json"_s);
    QTest::newRow("check refuses a parameter either way")
        << words(u"--d-model 64 check pe.npy"_s) << words(u"check pe.npy --d-model 64"_s);
    QTest::newRow("check's own options") << words(u"--expect sinusoidal --layout interleaved check pe.npy"_s)
                                         << words(u"check pe.npy --expect sinusoidal --layout interleaved"_s);
    QTest::newRow("describe") << words(u"--encoding rope --json describe"_s)
                              << words(u"describe --encoding rope --json"_s);
    QTest::newRow("--name=value") << words(u"--encoding=alibi --heads=8 describe"_s)
                                  << words(u"describe --encoding=alibi --heads=8"_s);
    QTest::newRow("help") << words(u"--help check"_s) << words(u"check --help"_s);
    QTest::newRow("help's own option") << words(u"--generate fish help"_s) << words(u"help --generate fish"_s);
    QTest::newRow("lessons") << words(u"--help lessons"_s) << words(u"lessons --help"_s);
}

void TestCliGrammar::optionsBeforeTheCommandAreItsOwn()
{
    QFETCH(QStringList, before);
    QFETCH(QStringList, after);
    const CliRun::BinaryRun first = run(before, m_dir.path());
    const CliRun::BinaryRun second = run(after, m_dir.path());
    QVERIFY2(!first.err.contains(u"unknown command"_s), qPrintable(first.err));
    QCOMPARE(first.exitCode, second.exitCode);
    QCOMPARE(first.out, second.out);
    QCOMPARE(first.err, second.err);
    QVERIFY(first.exitCode == 0 || !first.err.isEmpty());
}

void TestCliGrammar::anOptionsValueIsNeverTheCommand()
{
    // "table" here is -o's file, and "check" the first word that is no option's value.
    const CliRun::BinaryRun written
        = run(words(u"-o table --format csv --d-model 4 --max-len 2 table pe"_s), m_dir.path());
    QVERIFY2(written.exitCode == 0, qPrintable(written.err));
    QVERIFY(QFileInfo(m_dir.filePath(u"table"_s)).isFile());
    // A file given before the command word is the window's: the command is not looked for after it.
    const CliRun::BinaryRun window = run(words(u"--help pe.npy check"_s), m_dir.path());
    QCOMPARE(window.exitCode, 2);
}

void TestCliGrammar::standardInputWhereverAFileIsRead_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("file");
    for (const StandardInputRow &row : standardInputRows(m_config))
        QTest::newRow(qPrintable(row.name)) << row.command << row.file;
}

void TestCliGrammar::standardInputWhereverAFileIsRead()
{
    QFETCH(QString, command);
    QFETCH(QString, file);
    const QString path = QFileInfo(file).isAbsolute() ? file : m_dir.filePath(file);
    QFile bytes(path);
    QVERIFY(bytes.open(QIODevice::ReadOnly));
    const QByteArray content = bytes.readAll();
    const CliRun::BinaryRun named = run(words(QString(command).replace(u"{}"_s, path)), m_dir.path());
    const QStringList standardInput = words(QString(command).replace(u"{}"_s, u"-"_s));
    const CliRun::BinaryRun piped = run(standardInput, m_dir.path(), {}, content, true);
    const CliRun::BinaryRun redirected = run(standardInput, m_dir.path(), path);
    QVERIFY2(named.exitCode == 0 || named.exitCode == 1, qPrintable(named.err));
    for (const CliRun::BinaryRun &read : {piped, redirected}) {
        QVERIFY2(read.exitCode == named.exitCode, qPrintable(read.err));
        // Where the output names the file, it names "-".
        QCOMPARE(read.out, QByteArray(named.out).replace(path.toUtf8(), "-"));
    }
}

void TestCliGrammar::everyOptionThatReadsAFileTakesStandardInput()
{
    // The rows above against every option of the command list whose value is a file read, and every
    // command whose argument is one.
    QSet<QString> covered;
    for (const StandardInputRow &row : standardInputRows(m_config))
        covered.insert(row.covers);
    QList<const Command *> commands {&Commands::window()};
    for (const Command &command : Commands::all())
        commands.append(&command);
    QStringList missing;
    for (const Command *command : commands) {
        const QString name = command->name.isEmpty() ? u"window"_s : command->name;
        if (command->argument && command->argument->completesFiles && !covered.contains(name + u" ARG"_s))
            missing.append(u"posenc %1's %2"_s.arg(name, command->argument->name));
        for (const CommandOption &option : command->allOptions()) {
            const QString key = option.names.constLast();
            if (option.completesFiles && !kWrittenFiles.contains(key) && !covered.contains(key))
                missing.append(u"posenc %1 --%2"_s.arg(name, key));
        }
    }
    QVERIFY2(missing.isEmpty(), qPrintable(u"no row reads these from -: "_s + missing.join(u", "_s)));
}

void TestCliGrammar::everyListedUsageWorks_data()
{
    QTest::addColumn<QString>("usage");
    QList<const Command *> commands {&Commands::window()};
    for (const Command &command : Commands::all())
        commands.append(&command);
    for (const Command *command : commands) {
        for (const QString &line : command->synopsis())
            QTest::newRow(qPrintable(line)) << line;
    }
}

// Each synopsis with its optional parts left out and its words filled in runs and exits 0: a table
// that is correct, a config without an error finding. The window draws once and quits
// (--screenshot), the benchmarks run at a small size once: both take [OPTIONS].
void TestCliGrammar::everyListedUsageWorks()
{
    QFETCH(QString, usage);
    const QStringList given = words(required(usage));
    QCOMPARE(given.value(0), u"posenc"_s);
    const QString command = given.size() > 1 && Commands::find(given[1]) ? given[1] : QString();
    QStringList arguments;
    for (qsizetype i = 1; i < given.size(); ++i) {
        const QString &word = given[i];
        const QString before = given[i - 1];
        if (word.startsWith(u'-') || Commands::find(word) || word == u"posenc"_s) {
            arguments.append(word);
            continue;
        }
        if (before == u"-o"_s || before == u"--output"_s)
            arguments.append(command == u"table"_s ? u"usage.npy"_s : u"usage.png"_s);
        else if (before == u"--config"_s)
            arguments.append(m_config);
        else if ((before == u"--lesson"_s || before == u"lessons"_s) && word == u"NAME"_s)
            arguments.append(u"rope-scaling"_s);
        else if (before == u"--position-ids"_s && word == u"IDS.npy"_s)
            arguments << u"ids.npy"_s << u"--batch"_s << u"left:3,4"_s << u"--max-len"_s << u"4"_s;
        else if (before == u"--encoding"_s && word == u"FAMILY"_s)
            arguments.append(u"rope"_s);
        else if (before == u"--generate"_s && word == u"KIND"_s)
            arguments.append(u"man"_s);
        else if (before == u"--apply"_s && word == u"X"_s)
            arguments << u"q.npy"_s;
        else if (word == u"Y"_s && before == u"X"_s)
            arguments << u"q_rotated.npy"_s;
        else if (word == u"FIGURE"_s)
            arguments.append(u"heatmap"_s);
        else if (word == u"QUANTITY"_s)
            arguments.append(u"pe"_s);
        else if (word == u"FILE"_s) // a table to check, FILE[:TENSOR] without its optional part
            arguments.append(u"pe.npy"_s);
        else if (word == u"TOPIC"_s)
            arguments.append(u"check"_s);
        else
            QFAIL(qPrintable(u"the usage '%1' names %2, which this test cannot fill in"_s.arg(usage, word)));
    }
    if (command.isEmpty())
        arguments << u"--screenshot"_s << u"usage-window.png"_s << u"--size"_s << u"800x600"_s;
    if (command == u"bench"_s)
        arguments << words(u"--kernels-only --repeats 1 --max-len 256 --d-model 64"_s);
    arguments << u"--force"_s;
    // --force only where the command takes it.
    const Command *taking = command.isEmpty() ? &Commands::window() : Commands::find(command);
    const QList<CommandOption> options = taking->allOptions();
    if (std::none_of(options.begin(), options.end(),
                     [](const CommandOption &o) { return o.names.contains(u"force"_s); }))
        arguments.removeLast();
    const CliRun::BinaryRun ran = run(arguments, m_dir.path());
    QVERIFY2(ran.exitCode == 0,
             qPrintable(u"posenc %1: exit %2: %3"_s.arg(arguments.join(u' ')).arg(ran.exitCode).arg(ran.err)));
}

POSENC_TEST_GUILESS_MAIN(TestCliGrammar)
} // namespace tst_cligrammar
#include "tst_cligrammar.moc"
