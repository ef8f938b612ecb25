#pragma once

// What the check window's tests (tst_checkwindow, tst_checkwindowverdicts) share: a sinusoid's
// table, the largest difference a report and a caption give, the window's start, a dialog closed
// and waited for, the bytes the process has read, a table checked from the menu, and the fixture.
#include "check/CheckReport.h"
#include "core/NumberText.h"
#include "gui/CheckReference.h"
#include "gui/ControlPanel.h"
#include "gui/MainWindow.h"
#include "gui/ModelConfigDialog.h"
#include "gui/TableCheckDialog.h"
#include "gui/TensorPicker.h"
#include "gui/UndoHistory.h"
#include "gui/WindowMenus.h"
#include "io/NpyWriter.h"
#include "support/TestFiles.h"
#include "support/TestShots.h"
#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTreeWidget>
#include <QUndoStack>
#include <cmath>
#include <limits>
#include <optional>

namespace CheckWindowTesting {

using namespace posenc;
using namespace Qt::StringLiterals;

constexpr std::int64_t kRows = 256;
constexpr std::int64_t kCols = 64;
// The cell a mistake changes, and by how much.
constexpr std::int64_t kBadRow = 77;
constexpr std::int64_t kBadCol = 21;
constexpr double kBump = 1e-3;
// A float32 table against a float64 reference: each side within half an ulp of 1.
constexpr double kRounding = 1.2e-7;

// The paper's sinusoid in float64, interleaved: column 2i sin(p w_i), 2i + 1 cos(p w_i),
// w_i = 10000^(-2i/d).
inline double sinusoid(std::int64_t p, std::int64_t c, std::int64_t d)
{
    const double w = std::exp(-2.0 * double(c / 2) * std::log(10000.0) / double(d));
    return c % 2 == 0 ? std::sin(double(p) * w) : std::cos(double(p) * w);
}

inline RowMatrixXf sinusoidTable(std::int64_t rows, std::int64_t cols)
{
    RowMatrixXf table(rows, cols);
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < cols; ++c)
            table(p, c) = float(sinusoid(p, c, cols));
    return table;
}

// The tables the check window's tests open, written into `dir`: the sinusoid, and the same with
// the cell (kBadRow, kBadCol) kBump off. Their paths, or nothing when one was not written.
inline std::optional<std::pair<QString, QString>> writeSinusoids(const QTemporaryDir &dir)
{
    const QString correct = dir.filePath(u"sinusoid.npy"_s);
    const QString mistake = dir.filePath(u"sinusoid-bumped.npy"_s);
    RowMatrixXf table = sinusoidTable(kRows, kCols);
    if (writeNpy(correct, table))
        return std::nullopt;
    table(kBadRow, kBadCol) = float(double(table(kBadRow, kBadCol)) + kBump);
    if (writeNpy(mistake, table))
        return std::nullopt;
    return std::pair {correct, mistake};
}

// The largest |error| as the report prints it ("max |error|: X at row r, column c ...") and as the
// heatmap's caption gives it ("the largest error (X)"): the same words of the same number.
inline QString reportLargest(const QString &report)
{
    static const QRegularExpression line(uR"(max \|error\|: (\S+) at row)"_s);
    return line.match(report).captured(1);
}
inline QString captionLargest(const QString &caption)
{
    static const QRegularExpression words(uR"(the largest error \(([^)]+)\))"_s);
    return words.match(caption).captured(1);
}

// The window starts on a RoPE, so that a sinusoid's reference changes every group it sets.
inline Params start()
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 256;
    p.maxLen = 512;
    p.rope.headDim = 64;
    return p;
}

inline void closeAndWait(QPointer<QDialog> &dialog)
{
    dialog->close();
    while (dialog)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

inline std::optional<qint64> bytesRead()
{
    QFile io(u"/proc/self/io"_s);
    if (!io.open(QIODevice::ReadOnly))
        return std::nullopt;
    for (const QByteArray &line : io.readAll().split('\n')) {
        if (line.startsWith("rchar:"))
            return line.mid(6).trimmed().toLongLong();
    }
    return std::nullopt;
}

inline TableCheckDialog *checkAndWait(MainWindow &window, const QString &path)
{
    TableCheckDialog *dialog = window.menus()->checkTable(path);
    if (!dialog)
        return nullptr;
    if (!QTest::qWaitFor([dialog] { return !dialog->isChecking(); }, 120000))
        return nullptr;
    return dialog;
}

// The fixture both test classes derive from: Qt's file dialogs remember their state in the
// user's QtProject.conf, here in a directory of the test's own (`useOwnSettings` from
// initTestCase), and a correct and a wrong sinusoid table written afresh for each test
// (`writeTables` from init).
class CheckWindowFixture
{
protected:
    void useOwnSettings()
    {
        QVERIFY(m_config.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
    }

    void writeTables()
    {
        QVERIFY(m_dir.isValid());
        const auto written = writeSinusoids(m_dir);
        QVERIFY(written);
        std::tie(m_correct, m_mistake) = *written;
    }

    QTemporaryDir m_config;
    QTemporaryDir m_dir;
    QString m_correct;
    QString m_mistake;
};

} // namespace CheckWindowTesting
