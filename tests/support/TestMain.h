#pragma once

// A test's main, as Qt Test's QTEST_MAIN, QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN write it, under
// the test's own name. The tests of a folder that share their libraries, definitions and shared
// header are compiled together, up to eight in one batch (tests/CMakeLists.txt,
// posenc_compile_tests): each test file's names live in a namespace of its file's name, and each
// executable tst_<unit> holds its batch's companions too, running the one its own name gives
// (tests/support/TestMain.cpp). Used last in the file's namespace, where QTEST_MAIN would stand:
// the application made is the one QTEST_MAIN makes for the libraries the test links (QApplication
// with the widgets, QGuiApplication with Qt Gui, QCoreApplication otherwise).
#include <QtTest>

namespace testing {

// A test's run: Qt Test's main of that test, with its application.
using TestRun = int (*)(int argc, char *argv[]);

// Records `run` as the test of source `file`: tst_<unit>.cpp's is run by the executable tst_<unit>.
bool registerTest(const char *file, TestRun run);

} // namespace testing

#define POSENC_TEST_MAIN_WRAPPER(TestObject, ...)                                                                      \
    int posencTestRun(int argc, char *argv[])                                                                          \
    {                                                                                                                  \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                             \
        __VA_ARGS__                                                                                                    \
        TestObject tc;                                                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&tc, argc, argv);                                                                          \
    }                                                                                                                  \
    [[maybe_unused]] const bool posencTestRegistered = testing::registerTest(__FILE__, posencTestRun);

#define POSENC_TEST_MAIN(TestObject) POSENC_TEST_MAIN_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define POSENC_TEST_GUILESS_MAIN(TestObject) POSENC_TEST_MAIN_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define POSENC_TEST_APPLESS_MAIN(TestObject) POSENC_TEST_MAIN_WRAPPER(TestObject)
