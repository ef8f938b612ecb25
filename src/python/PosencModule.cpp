// The Python module's native part, posenc._posenc (docs/ARCHITECTURE.md, Python): it runs the
// command line's commands in the calling process, word for word, with the arrays, configs and
// outputs of a call held in memory (MemoryFiles). Everything a user calls is in posenc/*.py.
#include "ArrayInput.h"

#include "cli/Cli.h"
#include "cli/Commands.h"
#include "cli/QtMessageFilter.h"
#include "cli/RuntimeDirectory.h"
#include "io/MemoryFiles.h"

#include <QApplication>
#include <QByteArray>
#include <QCoreApplication>
#include <QTextStream>
#include <QThread>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <string>
#include <vector>

using namespace Qt::StringLiterals;
namespace py = pybind11;

namespace {

QString text(const std::string &utf8)
{
    return QString::fromStdString(utf8);
}

// Bytes a command wrote, handed to Python without a copy (the buffer protocol: numpy.frombuffer).
struct Bytes
{
    QByteArray bytes;
};

// Figures are drawn by Qt's widgets, which need a QApplication: one is made the first time, on the
// offscreen platform as `posenc export` draws, unless the process has one already.
void ensureApplication()
{
    if (auto *app = QCoreApplication::instance()) {
        if (!qobject_cast<QApplication *>(app))
            throw std::runtime_error("posenc draws figures with Qt's widgets, and this process has a Qt application "
                                     "without them");
        if (QThread::currentThread() != app->thread())
            throw std::runtime_error("posenc draws figures on the thread that drew the first one");
        return;
    }
    posenc::ensureRuntimeDirectory();
    posenc::installQtMessageFilter();
    static int argc = 3;
    static char name[] = "posenc", platform[] = "-platform", offscreen[] = "offscreen";
    static char *argv[] = {name, platform, offscreen, nullptr};
    new QApplication(argc, argv);
}

// Runs `posenc ARGUMENTS...` with these in memory: the tables (name -> array or tensor), the
// files (name -> bytes) and the outputs (names) it writes. Returns the exit code, what it printed
// on standard output and on standard error, and each output's bytes.
py::tuple run(const std::vector<std::string> &arguments, const py::dict &tables,
              const std::map<std::string, py::bytes> &files, const std::vector<std::string> &outputs)
{
    QStringList argv {u"posenc"_s};
    for (const std::string &argument : arguments)
        argv.append(text(argument));
    if (argv.size() > 1 && argv[1] == u"export"_s)
        ensureApplication();
    posenc::MemoryFiles::Scope scope;
    for (const auto &[name, object] : tables) {
        const QString key = text(py::str(name).cast<std::string>());
        auto rows = posenc::ArrayInput::rows(object, key);
        if (!rows)
            throw py::value_error(rows.error().toString().toStdString());
        scope.addTable(key, std::move(rows.value()));
    }
    for (const auto &[name, bytes] : files) {
        const std::string_view view = bytes;
        scope.addFile(text(name), QByteArray(view.data(), qsizetype(view.size())));
    }
    for (const std::string &name : outputs)
        scope.captureOutput(text(name));
    QString out;
    QString err;
    int code = 0;
    {
        const py::gil_scoped_release released;
        QTextStream outStream(&out);
        QTextStream errStream(&err);
        code = posenc::runCli(argv, outStream, errStream);
    }
    py::dict written;
    for (const std::string &name : outputs)
        written[py::str(name)] = Bytes {scope.written(text(name))};
    return py::make_tuple(code, out.toStdString(), err.toStdString(), written);
}

// The switches of a command (options that take no value), for keyword arguments given True.
std::vector<std::string> switches(const std::string &command)
{
    std::vector<std::string> names;
    const posenc::Command *found = posenc::Commands::find(text(command));
    if (!found)
        return names;
    for (const posenc::CommandOption &option : found->allOptions()) {
        if (option.valueName.isEmpty()) {
            for (const QString &name : option.names)
                names.push_back(name.toStdString());
        }
    }
    return names;
}

} // namespace

PYBIND11_MODULE(_posenc, m)
{
    m.doc() = "The native part of posenc: the command line's commands, run in this process.";
    QCoreApplication::setApplicationName(u"posenc"_s);
    QCoreApplication::setOrganizationName(u"PosEnc Explorer"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(POSENC_VERSION));
    m.attr("__version__") = POSENC_VERSION;
    py::class_<Bytes>(m, "_Bytes", py::buffer_protocol())
        .def_buffer([](Bytes &b) {
            return py::buffer_info(b.bytes.data(), 1, py::format_descriptor<unsigned char>::format(), 1,
                                   {b.bytes.size()}, {1});
        })
        .def("__len__", [](const Bytes &b) { return b.bytes.size(); });
    m.def("run", &run, py::arg("arguments"), py::arg("tables") = py::dict(),
          py::arg("files") = std::map<std::string, py::bytes>(), py::arg("outputs") = std::vector<std::string>(),
          "Runs posenc ARGUMENTS... in this process: (exit code, standard output, standard error, outputs).");
    m.def("switches", &switches, py::arg("command"), "The options of COMMAND that take no value.");
}
