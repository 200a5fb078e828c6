"""Unit tests of scripts/amp_driver/vsproj: MSBuild conditions and properties, the .sln
reader, what the fixture solution's projects mean in both configurations, the
generated CMakeLists.txt, and the errors on bad input.

  python3 -m unittest discover -s tests/vsproj      (CTest: vsproj.unit)
"""
import os
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
from amp_driver.vsproj.msbuild import Props, VsError, condition, expand
from amp_driver.vsproj.model import Build, VcProject
from amp_driver.vsproj.sln import Solution
from amp_driver.vsproj.cmakegen import generate

FIXTURE = os.path.join(HERE, "fixture")
SLN = os.path.join(FIXTURE, "Fixture.sln")


def props(**kw):
    p = Props()
    for k, v in kw.items():
        p[k] = v
    return p


class Conditions(unittest.TestCase):
    P = props(Configuration="Release", Platform="x64", Empty="")

    def cond(self, text, basedir=HERE):
        return condition(text, self.P, basedir, "test")

    def test_configuration_platform(self):
        self.assertTrue(self.cond("'$(Configuration)|$(Platform)'=='Release|x64'"))
        self.assertFalse(self.cond("'$(Configuration)|$(Platform)'=='Debug|x64'"))
        self.assertTrue(self.cond("'$(Configuration)|$(Platform)' == 'release|X64'"))  # case-insensitive
        self.assertTrue(self.cond("'$(Configuration)' != 'Debug'"))

    def test_and_or_not_parentheses(self):
        self.assertTrue(self.cond("'$(Platform)'=='Win32' or '$(Platform)'=='x64'"))
        self.assertFalse(self.cond("'$(Platform)'=='x64' and '$(Configuration)'=='Debug'"))
        # and binds tighter than or
        self.assertTrue(self.cond("'a'=='a' or 'a'=='b' and 'a'=='c'"))
        self.assertFalse(self.cond("('a'=='a' or 'a'=='b') and 'a'=='c'"))
        self.assertTrue(self.cond("!('$(Configuration)'=='Debug')"))
        self.assertTrue(self.cond("'$(Empty)' == ''"))
        self.assertTrue(self.cond("$(Configuration) == Release"))  # unquoted operands
        self.assertTrue(self.cond("true") and not self.cond("false"))

    def test_functions(self):
        self.assertTrue(self.cond("exists('fixture\\Fixture.sln')"))
        self.assertTrue(self.cond("Exists('fixture/MathLib')"))
        self.assertFalse(self.cond("exists('fixture\\nothing.props')"))
        self.assertFalse(self.cond("exists('$(Empty)')"))
        self.assertTrue(self.cond("HasTrailingSlash('a\\')") and not self.cond("HasTrailingSlash('a')"))
        self.assertTrue(self.cond("'2' < '10'"))  # numbers compare as numbers

    def test_bad_conditions_are_errors(self):
        for bad in ("'a' = 'b'", "'a'=='b' and", "('a'=='a'", "'abc'", "Frobnicate('x')", "'a' < 'b'"):
            with self.assertRaises(VsError, msg=bad):
                self.cond(bad)

    def test_expansion(self):
        p = props(A="x", B="$(A)")
        self.assertEqual(expand("$(A);$(a);$(Missing)", p), "x;x;")
        self.assertEqual(expand("%(PreprocessorDefinitions);Y", p, {"preprocessordefinitions": "X"}), "X;Y")
        with self.assertRaisesRegex(VsError, "property functions"):
            expand("$([System.IO.Path]::Combine('a','b'))", p)
        with self.assertRaisesRegex(VsError, "item lists"):
            expand("@(ClCompile)", p)


class Fixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rel = Build(SLN, None, env={})
        cls.dbg = Build(SLN, "Debug|x64", env={})

    def proj(self, build, name):
        return next(p for p in build.projects if p.name == name)

    def test_default_configuration_and_order(self):
        self.assertEqual(self.rel.config, "Release|x64")
        self.assertEqual([p.name for p in self.rel.projects], ["MathLib", "Greeter", "App", "UnitTests"])
        self.assertTrue(any("C# project Tools" in n for n in self.rel.notes))

    def test_static_library(self):
        for build, cfg_define, other in ((self.rel, "FIXTURE_RELEASE", "FIXTURE_DEBUG"),
                                         (self.dbg, "FIXTURE_DEBUG", "FIXTURE_RELEASE")):
            lib = self.proj(build, "MathLib")
            self.assertEqual(lib.kind, "static")
            self.assertEqual(lib.defines[:3], ["UNICODE", "_UNICODE", "MATHLIB_LIB"])
            self.assertIn(cfg_define, lib.defines)
            self.assertNotIn(other, lib.defines)
            self.assertIn("FIXTURE_FROM_PROPS=1", lib.defines)   # from shared.props via %(...)
            self.assertEqual(lib.includes, [os.path.join(FIXTURE, "common")])
            self.assertEqual(lib.forced, [os.path.join(FIXTURE, "common", "fixture_config.h")])
            self.assertEqual([os.path.basename(s.path) for s in lib.sources],
                             ["pch.cpp", "squares.cpp", "checksum.c", "scale.cpp"])
            self.assertEqual([os.path.basename(x) for x in lib.excluded], ["broken.cpp"])
            self.assertEqual([s.pch for s in lib.sources], ["Create", "Use", "NotUsing", "Use"])
            self.assertEqual([s.language for s in lib.sources], ["CXX", "CXX", "C", "CXX"])
            self.assertEqual(lib.pch_path(), os.path.join(FIXTURE, "MathLib", "pch.h"))
            scale = lib.sources[3]
            self.assertEqual((scale.defines, scale.undefs), (["SCALE_FACTOR=3"], []))
        self.assertIn("_DEBUG", self.proj(self.dbg, "MathLib").defines)       # /MDd
        self.assertNotIn("_DEBUG", self.proj(self.rel, "MathLib").defines)
        self.assertTrue(any("/Zc:inline" in n for n in self.proj(self.rel, "MathLib").notes))

    def test_application(self):
        app = self.proj(self.rel, "App")
        self.assertEqual((app.kind, app.target_name), ("exe", "fixture_app"))
        self.assertEqual(self.proj(self.dbg, "App").target_name, "App")
        self.assertIn("APP_EXPECT_RELEASE=1", app.defines)
        self.assertIn("APP_EXPECT_RELEASE=0", self.proj(self.dbg, "App").defines)
        self.assertEqual([p.name for p in app.link_projects], ["MathLib", "Greeter"])
        dll = self.proj(self.rel, "Greeter")
        self.assertEqual((dll.kind, dll.target_name), ("shared", "greeter"))
        self.assertEqual(dll.defines, ["UNICODE", "_UNICODE", "_WINDLL", "GREETER_EXPORTS"])
        self.assertEqual(app.libs, [])  # kernel32/user32 left out
        notes = "\n".join(app.notes)
        for part in ("PostBuildEvent `copy", "Windows resource (.rc) App.rc", "kernel32.lib, user32.lib"):
            self.assertIn(part, notes)

    def test_cppunittest_project(self):
        # A native unit-test DLL becomes a test program over GoogleTest, run by CTest.
        t = self.proj(self.rel, "UnitTests")
        self.assertEqual((t.kind, t.test), ("exe", "cppunittest"))
        self.assertEqual(t.defines, ["UNICODE", "_UNICODE", "UNIT_TESTS"])   # no _WINDLL: not a DLL here
        self.assertEqual(t.libs, ["GTest::gtest", "GTest::gtest_main"])
        self.assertEqual([p.name for p in t.link_projects], ["MathLib"])
        self.assertIsNone(self.proj(self.rel, "App").test)
        text = generate(self.rel, "/src/amp_compat")
        self.assertIn("enable_testing()", text)
        self.assertIn("add_test(NAME UnitTests COMMAND UnitTests", text)
        self.assertNotIn("add_test(NAME fixture_app", text)

    def test_generated_cmake(self):
        text = generate(self.rel, "/src/amp_compat")
        self.assertIn("add_subdirectory(\"/src/amp_compat\" amp_compat)", text)
        self.assertIn("add_library(MathLib STATIC", text)
        self.assertIn('"${VS_SOLUTION_DIR}/MathLib/scale.cpp" PROPERTIES COMPILE_DEFINITIONS "SCALE_FACTOR=3"', text)
        self.assertNotIn("broken.cpp\"\n", text)
        self.assertIn("# excluded from the build by the project: ${VS_SOLUTION_DIR}/MathLib/broken.cpp", text)
        self.assertIn("target_link_libraries(App PRIVATE MathLib Greeter amp_compat::msvc amp_compat::amp_compat "
                      "amp_compat::windows)", text)
        self.assertIn("add_library(Greeter SHARED", text)
        self.assertIn("set(CMAKE_POSITION_INDEPENDENT_CODE ON)", text)
        self.assertIn('set_target_properties(App PROPERTIES OUTPUT_NAME "fixture_app")', text)
        self.assertIn('"SHELL:-include ${VS_SOLUTION_DIR}/common/fixture_config.h"', text)
        self.assertLess(text.index("add_library(MathLib"), text.index("add_executable(App"))
        imported = generate(self.rel, None, windows=False, msvc=False)
        self.assertIn("find_package(amp_compat CONFIG REQUIRED)", imported)
        self.assertNotIn("amp_compat::msvc", imported)
        self.assertNotIn("amp_compat::windows", imported)
        self.assertNotIn("add_subdirectory", imported)

    def test_configurations(self):
        sln = Solution(SLN)
        self.assertEqual(sln.pick_config("debug|X64"), "Debug|x64")
        with self.assertRaisesRegex(VsError, "no configuration 'Release|Win32'.*Debug|x64, Release|x64"):
            sln.pick_config("Release|Win32")


PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project ToolsVersion="4.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <ItemGroup><ProjectConfiguration Include="Release|x64"/></ItemGroup>
  {body}
</Project>
"""


class EdgeCases(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def project(self, body, files=("a.cpp",), env=None, name="p.vcxproj"):
        for f in files:
            with open(os.path.join(self.dir, f), "w") as fh:
                fh.write("int x;\n")
        path = os.path.join(self.dir, name)
        with open(path, "w") as fh:
            fh.write(PROJECT.format(body=textwrap.dedent(body)))
        return VcProject(path, "Release", "x64", None, env or {})

    def test_file_definitions_that_replace_the_projects(self):
        p = self.project("""
          <ItemDefinitionGroup><ClCompile><PreprocessorDefinitions>A;B=2</PreprocessorDefinitions></ClCompile>
          </ItemDefinitionGroup>
          <ItemGroup><ClCompile Include="a.cpp"><PreprocessorDefinitions>C</PreprocessorDefinitions></ClCompile>
          </ItemGroup>""")
        self.assertEqual(p.defines, ["A", "B=2"])
        self.assertEqual((p.sources[0].defines, p.sources[0].undefs), (["C"], ["A", "B"]))

    def test_environment_gtest_and_libraries(self):
        os.makedirs(os.path.join(self.dir, "gt", "Include"))
        p = self.project("""
          <PropertyGroup><IncludePath>$(GTEST_ROOT)\\include;$(IncludePath)</IncludePath>
            <CharacterSet>MultiByte</CharacterSet></PropertyGroup>
          <ItemDefinitionGroup><Link>
            <AdditionalDependencies>gtestd.lib;gtest_main.lib;d3d11.lib;zlib.lib;%(AdditionalDependencies)</AdditionalDependencies>
          </Link></ItemDefinitionGroup>
          <ItemGroup><ClCompile Include="*.cpp"/></ItemGroup>""",
                         files=("a.cpp", "b.cpp"), env={"GTEST_ROOT": os.path.join(self.dir, "gt")})
        # Windows' case-insensitive names: include -> Include
        self.assertEqual(p.includes, [os.path.join(self.dir, "gt", "Include")])
        self.assertEqual(p.libs, ["GTest::gtest", "GTest::gtest_main", ("lib", "zlib")])
        self.assertEqual(p.defines, ["_MBCS"])
        self.assertEqual([os.path.basename(s.path) for s in p.sources], ["a.cpp", "b.cpp"])

    def test_nuget_googletest(self):
        with open(os.path.join(self.dir, "packages.config"), "w") as fh:
            fh.write('<packages><package id="Microsoft.googletest.v140.windesktop.msvcstl.static.rt-dyn" '
                     'version="1.8.1"/></packages>')
        p = self.project("""
          <ItemGroup><ClCompile Include="a.cpp"/></ItemGroup>
          <Import Project="..\\packages\\Microsoft.googletest.v140\\build\\native\\x.targets"
                  Condition="Exists('..\\packages\\Microsoft.googletest.v140\\build\\native\\x.targets')"/>""")
        self.assertEqual(p.libs, ["GTest::gtest", "GTest::gtest_main"])

    def test_cppunittest_detected_by_include(self):
        # No ProjectSubType: a source including CppUnitTest.h makes it a test project.
        with open(os.path.join(self.dir, "t.cpp"), "w") as fh:
            fh.write('#include "stdafx.h"\n  #  include <CppUnitTest.h>\n')
        p = self.project("""<PropertyGroup><ConfigurationType>DynamicLibrary</ConfigurationType></PropertyGroup>
          <ItemDefinitionGroup><Link><AdditionalDependencies>Microsoft.VisualStudio.TestTools.CppUnitTestFramework.lib;%(AdditionalDependencies)</AdditionalDependencies></Link></ItemDefinitionGroup>
          <ItemGroup><ClCompile Include="t.cpp"/></ItemGroup>""", files=())
        self.assertEqual((p.kind, p.test), ("exe", "cppunittest"))
        self.assertEqual(p.libs, ["GTest::gtest_main", "GTest::gtest"])
        # A commented-out include does not count.
        with open(os.path.join(self.dir, "t.cpp"), "w") as fh:
            fh.write('// #include "CppUnitTest.h"\n')
        q = self.project("""<PropertyGroup><ConfigurationType>DynamicLibrary</ConfigurationType></PropertyGroup>
          <ItemGroup><ClCompile Include="t.cpp"/></ItemGroup>""", files=())
        self.assertEqual((q.kind, q.test), ("shared", None))

    def test_shared_library_and_kinds(self):
        p = self.project("""<PropertyGroup><ConfigurationType>DynamicLibrary</ConfigurationType></PropertyGroup>
          <ItemGroup><ClCompile Include="a.cpp"/></ItemGroup>""")
        self.assertEqual((p.kind, p.defines), ("shared", ["_WINDLL"]))
        u = self.project("""<PropertyGroup><ConfigurationType>Utility</ConfigurationType></PropertyGroup>""")
        self.assertIsNone(u.kind)
        self.assertTrue(any("Utility" in n for n in u.notes))

    def test_errors(self):
        with self.assertRaisesRegex(VsError, "source missing.cpp not found"):
            self.project('<ItemGroup><ClCompile Include="missing.cpp"/></ItemGroup>', files=())
        with self.assertRaisesRegex(VsError, "no configuration 'Release\\|x64'; the project has: Debug\\|Win32"):
            VcProject(self._write("<Project><ItemGroup><ProjectConfiguration Include='Debug|Win32'/></ItemGroup>"
                                  "</Project>"), "Release", "x64", None, {})
        with self.assertRaisesRegex(VsError, "not a valid XML file"):
            VcProject(self._write("<Project><ItemGroup></Project>"), "Release", "x64", None, {})
        with self.assertRaisesRegex(VsError, "not a Visual Studio solution"):
            Build(self._write("hello", "x.sln"))
        with self.assertRaisesRegex(VsError, "expected a .sln or .vcxproj"):
            Build(self._write("hello", "x.txt"))
        with self.assertRaisesRegex(VsError, "cycle"):
            a = self._write("<Project><ItemGroup><ProjectReference Include='b.vcxproj'/></ItemGroup></Project>", "a.vcxproj")
            self._write("<Project><ItemGroup><ProjectReference Include='a.vcxproj'/></ItemGroup></Project>", "b.vcxproj")
            Build(a, "Release|x64", env={})

    def test_choose_and_imported_props(self):
        with open(os.path.join(self.dir, "sheet.props"), "w") as fh:
            fh.write('<Project><PropertyGroup><FromSheet>yes</FromSheet></PropertyGroup></Project>')
        p = self.project("""
          <Import Project="sheet.props" Condition="Exists('sheet.props')"/>
          <Import Project="absent.props"/>
          <Choose>
            <When Condition="'$(FromSheet)' == 'no'"><PropertyGroup><Pick>A</Pick></PropertyGroup></When>
            <When Condition="'$(FromSheet)' == 'yes'"><PropertyGroup><Pick>B</Pick></PropertyGroup></When>
            <Otherwise><PropertyGroup><Pick>C</Pick></PropertyGroup></Otherwise>
          </Choose>
          <ItemDefinitionGroup><ClCompile><PreprocessorDefinitions>PICK_$(Pick)</PreprocessorDefinitions>
          </ClCompile></ItemDefinitionGroup>
          <ItemGroup><ClCompile Include="a.cpp"/></ItemGroup>""")
        self.assertEqual(p.defines, ["PICK_B"])
        self.assertTrue(any("absent.props" in n and "does not exist" in n for n in p.notes))

    def test_solution_mapping(self):
        os.makedirs(os.path.join(self.dir, "lib"))
        with open(os.path.join(self.dir, "lib", "a.cpp"), "w") as fh:
            fh.write("int a;\n")
        with open(os.path.join(self.dir, "lib", "L.vcxproj"), "w") as fh:
            fh.write(PROJECT.format(body='<ItemGroup><ProjectConfiguration Include="Release|Win32"/></ItemGroup>'
                                    '<PropertyGroup><ConfigurationType>StaticLibrary</ConfigurationType>'
                                    '</PropertyGroup><ItemGroup><ClCompile Include="a.cpp"/></ItemGroup>'))
        sln = self._write(textwrap.dedent("""
            Microsoft Visual Studio Solution File, Format Version 12.00
            Project("{8BC9CEB8-8B4A-11D0-8D11-00A0C91BC942}") = "L", "lib\\L.vcxproj", "{00000000-0000-0000-0000-000000000001}"
            EndProject
            Project("{8BC9CEB8-8B4A-11D0-8D11-00A0C91BC942}") = "M", "lib\\M.vcxproj", "{00000000-0000-0000-0000-000000000002}"
            EndProject
            Global
            	GlobalSection(SolutionConfigurationPlatforms) = preSolution
            		Release|x86 = Release|x86
            	EndGlobalSection
            	GlobalSection(ProjectConfigurationPlatforms) = postSolution
            		{00000000-0000-0000-0000-000000000001}.Release|x86.ActiveCfg = Release|Win32
            		{00000000-0000-0000-0000-000000000001}.Release|x86.Build.0 = Release|Win32
            		{00000000-0000-0000-0000-000000000002}.Release|x86.ActiveCfg = Release|Win32
            	EndGlobalSection
            EndGlobal
            """), "s.sln")
        b = Build(sln, "Release|Win32", env={})   # Win32 names the solution's x86
        self.assertEqual(b.config, "Release|x86")
        self.assertEqual([(p.name, p.config, p.platform, p.kind) for p in b.projects],
                         [("L", "Release", "Win32", "static")])
        self.assertTrue(any("M: not built" in n for n in b.notes))

    def _write(self, text, name="bad.vcxproj"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as fh:
            fh.write(text)
        return path


if __name__ == "__main__":
    unittest.main()
